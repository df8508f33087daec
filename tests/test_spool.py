"""A large input is written out as it is read (dedup.corpus.spool) and read by the engine from
there: the same documents, ids, pairs and account as when Python holds it whole. The thresholds
are lowered so that small inputs take the large inputs' path, in several parts."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import dedup.corpus.collected as collected_module
import dedup.corpus.tables as tables_module
from dedup.cli import app
from dedup.corpus.collected import Corpus
from dedup.corpus.lines import read_lines
from dedup.corpus.read import read_by_python
from dedup.errors import InputError
from dedup.settings import Reading

WORDS = [f"w{i}" for i in range(400)]


def texts(count: int, seed: int = 3) -> list[str]:
    """Documents of 30 words, every third a near copy of the one before."""
    rng = random.Random(seed)
    out: list[str] = []
    for i in range(count):
        if i % 3 == 2:
            words = out[-1].split()
            words[rng.randrange(len(words))] = rng.choice(WORDS)
            out.append(" ".join(words))
        else:
            out.append(" ".join(rng.choice(WORDS) for _ in range(30)))
    return out


@pytest.fixture
def spooled(monkeypatch):
    """Reading writes out every ~2 KB of text, a Parquet file is read in parts of ~500 bytes."""

    def lower() -> None:
        monkeypatch.setattr(collected_module, "SPOOL_BYTES", 2_000)
        monkeypatch.setattr(tables_module, "PART_BYTES", 500)

    return lower


def make_inputs(tmp_path: Path, kind: str) -> tuple[list[str], list[str]]:
    """The input (arguments) of a kind, and the options it is read with."""
    docs = texts(120)
    folder = tmp_path / "in"
    folder.mkdir()
    if kind == "parquet-int-ids":
        ids = list(range(1000, 1120))
        random.Random(1).shuffle(ids)
        pq.write_table(pa.table({"id": ids, "text": docs}), folder / "t.parquet", row_group_size=50)
        return [str(folder / "t.parquet")], []
    if kind == "parquet-null-texts-html":
        html = [f"<p>{t}</p>" if i % 7 else None for i, t in enumerate(docs)]
        table = pa.table({"id": [f"doc-{i:03}" for i in range(120)], "text": html})
        pq.write_table(table, folder / "t.parquet", row_group_size=50)
        return [str(folder / "t.parquet")], ["--strip-html"]
    if kind == "lines":
        data = "\ufeff" + "\r\n".join(docs) + "\n"
        (folder / "docs.txt").write_bytes(data.encode() + b"caf\xe9 latin one\n")
        return [str(folder / "docs.txt")], ["--lines"]
    if kind == "lines-with-ids":
        (folder / "docs.txt").write_text("\n".join(docs) + "\n", encoding="utf-8")
        (folder / "ids.txt").write_text("\n".join(f"name-{i}" for i in range(120)) + "\n", encoding="utf-8")
        return [str(folder / "docs.txt")], ["--lines", "--ids", str(folder / "ids.txt")]
    if kind == "folder-and-table":
        for i, text in enumerate(docs[:60]):
            (folder / f"f{i:02}.txt").write_text(text, encoding="utf-8")
        pq.write_table(pa.table({"text": docs[60:]}), tmp_path / "rest.parquet", row_group_size=25)
        return [str(folder), str(tmp_path / "rest.parquet")], []
    if kind == "csv-quoted-latin1":
        rows = [f'{i:03},"{t}"' for i, t in enumerate(docs)]
        rows[40] = '040,"a value over\ntwo lines, with ""quotes"" in it"'
        data = ("id,text\n" + "\n".join(rows) + "\n").encode() + b'120,"caf\xe9 latin one"\n'
        (folder / "t.csv").write_bytes(data)
        return [str(folder / "t.csv")], []
    if kind == "tsv-gz":
        data = "text\tid\n" + "".join(f"{t}\tNA{i}\n" for i, t in enumerate(docs))
        (folder / "t.tsv.gz").write_bytes(gzip.compress(data.encode()))
        return [str(folder / "t.tsv.gz")], []
    if kind == "parquet-no-ids":
        pq.write_table(pa.table({"text": docs}), folder / "t.parquet", row_group_size=50)
        return [str(folder / "t.parquet")], []
    if kind == "csv-no-ids":
        (folder / "t.csv").write_text("text\n" + "".join(f'"{t}"\n' for t in docs), encoding="utf-8")
        return [str(folder / "t.csv")], []
    if kind == "dataset-no-ids":
        dataset = tmp_path / "dataset"
        for part in range(3):
            (dataset / f"lang=l{part}").mkdir(parents=True)
            pq.write_table(
                pa.table({"text": docs[part * 40 : part * 40 + 40]}), dataset / f"lang=l{part}" / "p.parquet"
            )
        return [str(dataset)], []
    if kind == "jsonl-gz-dates-nulls":
        lines = [
            json.dumps({"id": f"2024-01-{i % 28 + 1:02}T{i // 28:02}:00", "text": None if i % 9 == 4 else t})
            for i, t in enumerate(docs)
        ]
        (folder / "t.jsonl.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n\n").encode()))
        return [str(folder / "t.jsonl.gz")], []
    raise AssertionError(kind)


def run(tmp_path: Path, name: str, inputs: list[str], options: list[str]) -> tuple[str, list[tuple], bytes]:
    db, out = tmp_path / f"{name}.duckdb", tmp_path / f"{name}.csv"
    result = CliRunner().invoke(
        app,
        [
            "run",
            *inputs,
            *options,
            "--threshold",
            "0.5",
            "--shingle-type",
            "word",
            "-k",
            "2",
            "--db",
            str(db),
            "-o",
            str(out),
            "--temp-dir",
            str(tmp_path / f"{name}-tmp"),
        ],
    )
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(db), read_only=True) as con:
        documents = con.sql(
            "select doc_id, id::varchar, position, text, norm from documents order by doc_id"
        ).fetchall()
    return result.output.split("\n", 1)[1], documents, out.read_bytes()


def account(output: str) -> list[str]:
    """The summary's lines that count documents, shingles, pairs and skipped inputs (no timings)."""
    # the disk the run took is where it wrote (each run its own folder), its memory what the process
    # held before (runs in one process), not what it found
    left_out = ("finished", "disk:", "memory:")
    return [line for line in output.splitlines() if ":" in line and not line.startswith(left_out)]


KINDS = [
    "parquet-int-ids",
    "parquet-null-texts-html",
    "lines",
    "lines-with-ids",
    "folder-and-table",
    "csv-quoted-latin1",
    "tsv-gz",
    "jsonl-gz-dates-nulls",
    "parquet-no-ids",
    "csv-no-ids",
    "dataset-no-ids",
]


@pytest.mark.parametrize("kind", KINDS)
def test_a_spooled_input_gives_the_same_documents_pairs_and_account(tmp_path, spooled, kind):
    inputs, options = make_inputs(tmp_path, kind)
    whole = run(tmp_path, "whole", inputs, options)
    spooled()
    ids_file = Path(options[-1]) if "--ids" in options else None
    read = read_by_python(Reading(inputs=tuple(Path(i) for i in inputs), lines="--lines" in options, ids_file=ids_file))
    assert read.raw is None and read.spool is not None and read.spool.documents == len(whole[1]) >= 100
    folder = read.spool.written().parent
    read.close()
    assert not folder.exists()
    parts = run(tmp_path, "parts", inputs, options)
    assert parts[1] == whole[1]  # every document: doc_id, id, position, text, normalized text
    assert parts[2] == whole[2] and parts[2].count(b"\n") > 20  # the pairs, byte for byte
    assert account(parts[0]) == account(whole[0]) and "read =" in account(parts[0])[0]
    assert not list((tmp_path / "parts-tmp").glob("dedup-input-*"))  # the spool is removed


def test_a_duplicate_id_across_parts_is_named_as_when_read_whole(tmp_path, spooled):
    docs = texts(120)
    ids = [f"d{i}" for i in range(120)]
    ids[110] = "d7"  # the second "d7" is in a later part than the first
    ids[115] = "d3"
    pq.write_table(pa.table({"id": ids, "text": docs}), tmp_path / "t.parquet")
    args = ["run", str(tmp_path / "t.parquet"), "--temp-dir", str(tmp_path)]
    whole = CliRunner().invoke(app, args)
    spooled()
    parts = CliRunner().invoke(app, args)
    assert whole.exit_code == parts.exit_code == 1
    assert "duplicate document id 'd7'" in whole.output
    assert parts.output == whole.output
    assert not list(tmp_path.glob("dedup-input-*"))


def test_unsigned_ids_in_parts_of_either_range(tmp_path, spooled):
    """An unsigned 64-bit id column's ids take the type of the first part's values; a later part
    below 2^63 is read in it; a later part beyond the first's type is refused in one line."""
    docs = texts(120)
    mixed = pa.array([2**63 + i if i < 60 else i for i in range(120)], pa.uint64())
    pq.write_table(pa.table({"id": mixed, "text": docs}), tmp_path / "mixed.parquet")
    outputs = []
    for spool in (False, True):
        if spool:
            spooled()
        out = tmp_path / f"{spool}.csv"
        result = CliRunner().invoke(app, ["run", str(tmp_path / "mixed.parquet"), "-o", str(out), "--threshold", "0.5"])
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and b",9223372036854775" in outputs[0]
    rising = pa.array([i if i < 64 else 2**63 + i for i in range(120)], pa.uint64())  # parts of 64 rows
    pq.write_table(pa.table({"id": rising, "text": docs}), tmp_path / "rising.parquet")
    result = CliRunner().invoke(app, ["run", str(tmp_path / "rising.parquet")])
    assert (
        result.exit_code == 1 and "document ids change type as the input is read (int64, then uint64)" in result.output
    )
    assert len(result.output.strip().splitlines()) == 1


LINE_BYTES = st.lists(
    st.sampled_from([b"a", b"b c", b"\n", b"\r", b"\r\n", b"\xef\xbb\xbf", b"\xe9", b" "]), max_size=30
)


@given(parts=LINE_BYTES)
def test_a_lines_file_read_line_by_line_gives_what_reading_it_whole_gives(tmp_path_factory, parts):
    data = b"".join(parts)
    path = tmp_path_factory.mktemp("lines") / "docs.txt"
    path.write_bytes(data)
    streamed, whole = Corpus(), Corpus()
    read_lines(streamed, path, prefix=None)
    read_lines(whole, path, prefix=None, data=data)  # standard input is read whole
    assert streamed.to_arrow().equals(whole.to_arrow())
    assert streamed.notes == whole.notes


def test_a_binary_file_given_as_lines_is_refused_either_way(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"PAR1" + b"\x00" * 50 + b"\nmore\n")
    with pytest.raises(InputError, match="is a binary file"):
        read_lines(Corpus(), path, prefix=None)


def test_a_csv_is_read_in_parts_and_a_bad_row_in_a_later_part_is_named(tmp_path, spooled):
    spooled()
    good = tmp_path / "t.csv"
    good.write_text("id,text\n" + "".join(f'{i},"{t}"\n' for i, t in enumerate(texts(120))), encoding="utf-8")
    parts = list(tables_module.table_parts(good, "csv"))
    assert len(parts) > 10 and sum(p.num_rows for p in parts) == 120
    assert pa.concat_tables(parts).column("id").to_pylist()[:2] == [b"0", b"1"]  # cells as read, not inferred
    lines = good.read_text(encoding="utf-8").splitlines()
    lines[100] += ",an extra field"
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(bad), "--temp-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{bad}: line 101: expected 2 fields separated by ',', got 3" in result.output
    assert not list(tmp_path.glob("dedup-input-*"))
    header_only = tmp_path / "empty.csv"
    header_only.write_text("id,body\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(header_only)])
    assert result.exit_code == 1 and "no text column 'text'; columns are 'id', 'body'" in result.output


def test_a_json_lines_file_is_read_in_parts_with_the_columns_of_the_whole_file(tmp_path, spooled):
    """A key missing from every line of a part is NULL there, as in a whole read: a text is skipped
    as NULL, an id column missing from the first lines is refused, a file with no text column is
    named as such."""
    docs = texts(120)
    lines = [json.dumps({"id": i, "text": t}) for i, t in enumerate(docs)]
    lines[60:70] = [json.dumps({"id": i}) for i in range(60, 70)]  # a part of lines without "text"
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["run", str(path), "--temp-dir", str(tmp_path), "--threshold", "0.5", "-o", str(tmp_path / "p.csv")]
    whole = CliRunner().invoke(app, args)
    spooled()
    assert len(list(tables_module.table_parts(path, tables_module.table_format(path)))) > 10
    parts = CliRunner().invoke(app, args)
    assert whole.exit_code == parts.exit_code == 0, parts.output
    assert "documents: 120 read = 110 processed + 0 empty + 10 skipped" in whole.output
    assert account(parts.output) == account(whole.output)
    no_ids = [json.dumps({"text": t}) for t in docs[:50]] + [
        json.dumps({"id": i, "text": t}) for i, t in enumerate(docs)
    ]
    path.write_text("\n".join(no_ids) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--temp-dir", str(tmp_path)])
    assert result.exit_code == 1 and "id column 'id' is missing from the first" in result.output
    path.write_text("\n".join(json.dumps({"id": i, "body": t}) for i, t in enumerate(docs)) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--temp-dir", str(tmp_path)])
    assert result.exit_code == 1 and "no text column 'text'; columns are 'id', 'body'" in result.output
    assert not list(tmp_path.glob("dedup-input-*"))


@pytest.mark.parametrize(
    ("second", "change"),
    [
        ({"id": "x", "text": "b"}, "Column(/id) changed from number to string"),
        ({"id": 2, "text": 5}, "Column(/text) changed from string to number"),
    ],
)
def test_json_ids_or_texts_that_change_type_are_refused_wherever_the_parts_fall(tmp_path, spooled, second, change):
    """pyarrow refuses a key that changes type within the lines it reads at once; one part holding
    numbers for ids and the next strings was read, so the same file was refused or read by its size."""
    path = tmp_path / "t.jsonl"
    lines = [json.dumps({"id": 1, "text": "a"}), "", json.dumps({"id": 3, "text": None}), json.dumps(second)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    whole = CliRunner().invoke(app, ["run", str(path), "-q"])
    spooled()
    tables_module.PART_BYTES = 1  # a part per line (the fixture restores it)
    assert len(list(tables_module.table_parts(path, "jsonl"))) == 3  # the blank line is not a row
    parts = CliRunner().invoke(app, ["run", str(path), "-q"])
    for result in (whole, parts):
        assert (result.exit_code, result.output.count("\n")) == (1, 1), result.output
        assert f"cannot read table {path}: JSON parse error: {change} in row 2" in result.output


def test_a_parquet_dataset_in_parts_is_the_table_read_whole(tmp_path, spooled):
    spooled()
    docs = texts(300)
    for part in range(30):  # more files than the scanner reads ahead, of unequal sizes
        folder = tmp_path / "d" / f"year={2000 + part % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        rows = docs[part * 10 : part * 10 + 10 - part % 4]
        pq.write_table(pa.table({"text": rows, "n": list(range(len(rows)))}), folder / f"part-{part:05}.parquet")
    d = tmp_path / "d"
    parts = list(tables_module._dataset_parts(d, tables_module.list_dataset(d).files))
    assert len(parts) >= 2
    assert pa.concat_tables(parts).equals(pq.read_table(tmp_path / "d"))  # rows, order, the partition column
