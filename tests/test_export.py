"""Every export round-trips in every format; --write-deduplicated keeps the input's form."""

from __future__ import annotations

import gzip
import io
import json
import os

import duckdb
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.json as pjson
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from indexing import invoke, make_index, rows, write_jsonl
from typer.testing import CliRunner

from dedup.choices import ExportKind
from dedup.cli import app
from dedup.engines.duckdb import DuckDBEngine
from dedup.index.export import export_table, write_json

DOCS = {
    "a1": "the quick brown fox jumps over the lazy dog",
    "a2": "the quick brown fox jumps over the lazy dog",
    "a3": "the quick brown fox jumped over the lazy dog",
    "b1": "pack my box with five dozen liquor jugs now",
    "b2": "pack my box with five dozen liquor jugs, now!",
    "c": "nothing like the others at all",
}


def read_back(path, what):
    suffix = path.suffix
    if suffix == ".json":
        data = json.loads(path.read_text())
        if what == "adjacency":
            return [{"id": k, "similar": v} for k, v in data.items()]
        return data
    if suffix == ".parquet":
        return pq.read_table(path).to_pylist()
    if suffix == ".jsonl":
        return pjson.read_json(path).to_pylist() if path.stat().st_size else []
    table = pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(strings_can_be_null=False)).to_pylist()
    if what == "adjacency":
        return [{**row, "similar": json.loads(row["similar"])} for row in table]
    return table


@pytest.mark.parametrize("what", [w.value for w in ExportKind])
@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl", ".json"])
def test_every_export_round_trips(tmp_path, what, suffix):
    db = make_index(tmp_path, DOCS, "index", "--threshold", "0.5", "-k", "5")
    out = tmp_path / f"out{suffix}"
    invoke("export", db, "--what", what, "--output", out)
    con = duckdb.connect(str(db))
    expected = export_table(DuckDBEngine(con), what).to_pylist()
    con.close()
    assert expected, "every export has rows for this corpus"
    got = read_back(out, what)
    for row in got:  # CSV reads booleans and numbers back typed; ids stay strings here
        for key, value in row.items():
            if isinstance(value, float):
                row[key] = round(value, 12)
    for row in expected:
        for key, value in row.items():
            if isinstance(value, float):
                row[key] = round(value, 12)
    assert got == expected


def test_export_contents(tmp_path):
    db = make_index(tmp_path, DOCS, "index", "--threshold", "0.5", "-k", "5")
    con = duckdb.connect(str(db))
    adjacency = {row["id"]: row["similar"] for row in export_table(DuckDBEngine(con), "adjacency").to_pylist()}
    duplicates = export_table(DuckDBEngine(con), "duplicates").to_pylist()
    survivors = [row["id"] for row in export_table(DuckDBEngine(con), "survivors").to_pylist()]
    con.close()
    assert adjacency == {
        "a1": ["a2", "a3"],
        "a2": ["a1", "a3"],
        "a3": ["a1", "a2"],
        "b1": ["b2"],
        "b2": ["b1"],
        "c": [],
    }
    assert [(row["id"], row["survivor"]) for row in duplicates] == [("a2", "a1"), ("a3", "a1"), ("b2", "b1")]
    pairs = {(row["id_a"], row["id_b"]): row["jaccard"] for row in rows_of(db, "pairs")}
    assert [row["jaccard"] for row in duplicates] == [pairs["a1", "a2"], pairs["a1", "a3"], pairs["b1", "b2"]]
    assert duplicates[0]["jaccard"] == 1.0 and all(row["jaccard"] >= 0.5 for row in duplicates)
    assert survivors == ["a1", "b1", "c"]


def rows_of(db, what: str) -> list[dict]:
    con = duckdb.connect(str(db))
    try:
        return export_table(DuckDBEngine(con), what).to_pylist()
    finally:
        con.close()


def test_export_rejects_unknown_extension(tmp_path):
    db = make_index(tmp_path, DOCS)
    result = CliRunner().invoke(app, ["export", str(db), "--what", "pairs", "--output", str(tmp_path / "x.xlsx")])
    assert result.exit_code == 2 and "cannot tell the export format" in result.stderr


def test_survivors_export_to_txt_is_one_id_per_line(tmp_path):
    """--export survivors=ids.txt was refused: a line-aligned ids file is the natural form for a
    --lines input named by --ids. Other exports to .txt are refused before the run, in one line."""
    lines, names = tmp_path / "docs.txt", tmp_path / "names.txt"
    lines.write_text("a b c d e f g\nx y z w v u t\na b c d e f g\n")
    names.write_text("first\nsecond\nthird\n")
    kept = tmp_path / "kept.txt"
    result = CliRunner().invoke(
        app, ["run", str(lines), "--lines", "--ids", str(names), "-q", "--export", f"survivors={kept}"]
    )
    assert result.exit_code == 0, result.output
    assert kept.read_text() == "first\nsecond\n"
    refused = CliRunner().invoke(app, ["run", str(lines), "--lines", "-q", "--export", f"pairs={tmp_path / 'p.txt'}"])
    assert refused.exit_code == 2 and "a .txt export holds one id per line, for survivors" in refused.stderr
    assert not (tmp_path / "p.txt").exists()


def test_write_deduplicated_folder(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    for name, text in DOCS.items():
        (folder / "sub" / f"{name}.txt").write_text(text)
    (folder / "binary.bin").write_bytes(b"\x00\x01")
    out = tmp_path / "clean"
    invoke("run", folder, "-q", "--threshold", "0.5", "-k", "5", "--keep", "longest", "--write-deduplicated", out)
    kept = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    # a3 ("jumped") is the longest of the a's; b2 the longest of the b's; the skipped binary stays
    assert kept == ["binary.bin", "sub/a3.txt", "sub/b2.txt", "sub/c.txt"]
    assert (out / "sub" / "a3.txt").read_text() == DOCS["a3"]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_write_deduplicated_folder_named_for_a_table_is_that_table(tmp_path, suffix):
    """A copy named out.parquet of a folder was a folder of text files of that name, which
    `dedup run out.parquet` then refused ("Parquet magic bytes not found")."""
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    for name, text in DOCS.items():
        (folder / "sub" / f"{name}.txt").write_text(text)
    (folder / "empty.txt").write_text("")
    (folder / "binary.bin").write_bytes(b"\x00\x01")
    out = tmp_path / f"clean{suffix}"
    invoke("run", folder, "-q", "--threshold", "0.5", "-k", "5", "--keep", "longest", "--write-deduplicated", out)
    assert out.is_file()
    read = {".parquet": pq.read_table, ".csv": pcsv.read_csv, ".jsonl": pjson.read_json}[suffix](out)
    # the kept documents in input order (ids sorted as listed), the empty one too; no binary file
    assert read.column_names == ["id", "text"]
    assert read.to_pylist() == [
        {"id": "empty.txt", "text": ""},
        {"id": "sub/a3.txt", "text": DOCS["a3"]},
        {"id": "sub/b2.txt", "text": DOCS["b2"]},
        {"id": "sub/c.txt", "text": DOCS["c"]},
    ]
    again = invoke("run", out, "--threshold", "0.5", "-k", "5", "-o", tmp_path / "p.csv")
    assert (tmp_path / "p.csv").read_text() == "id_a,id_b,jaccard,estimate\n", again.stderr


def test_write_deduplicated_lines_to_a_table_names_them_by_number_or_ids(tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_text("same line here\nother line there\nsame line here\n")
    out = tmp_path / "kept.parquet"
    invoke("run", lines, "--lines", "-q", "--write-deduplicated", out)
    assert pq.read_table(out).to_pylist() == [
        {"id": 1, "text": "same line here"},
        {"id": 2, "text": "other line there"},
    ]
    names = tmp_path / "names.txt"
    names.write_text("z\ny\nx\n")  # --keep min-id keeps line 3 (x) of the two copies
    invoke(
        "run",
        lines,
        "--lines",
        "--ids",
        names,
        "-q",
        "--keep",
        "min-id",
        "--write-deduplicated",
        out := tmp_path / "named.parquet",
    )
    assert pq.read_table(out).to_pylist() == [
        {"id": "y", "text": "other line there"},
        {"id": "x", "text": "same line here"},
    ]
    invoke("run", lines, "--lines", "-q", "--write-deduplicated", out := tmp_path / "k.csv.gz")  # compressed
    assert gzip.decompress(out.read_bytes()) == b"id,text\n1,same line here\n2,other line there\n"
    refused = CliRunner().invoke(
        app, ["run", str(lines), "--lines", "--write-deduplicated", str(tmp_path / "k.parquet.gz")]
    )
    assert refused.exit_code == 2 and "parquet is not written gzip-compressed" in refused.stderr
    assert "name it k.parquet" in refused.stderr and not (tmp_path / "k.parquet.gz").exists()


def test_write_deduplicated_folder_keeps_what_was_not_read(tmp_path):
    """A hidden folder (.git, .config) was left out of the copy whole, and a link to a folder, or a
    broken one, was dropped: a user who kept the copy lost them. Now a hidden folder is copied whole
    (links in it kept links), any link that was not read stays a link; a named pipe has no content
    to copy and is left out, as beside it."""
    folder = tmp_path / "corpus"
    (folder / ".hidden" / "deeper").mkdir(parents=True)
    for name, text in DOCS.items():
        (folder / f"{name}.txt").write_text(text)
    (folder / ".hidden" / "deeper" / "notes.txt").write_text("kept")
    (folder / ".hidden" / "link").symlink_to("../c.txt")
    os.mkfifo(folder / ".hidden" / "pipe")
    (folder / "folder-link").symlink_to(".hidden")
    (folder / "broken").symlink_to(tmp_path / "nowhere")
    out = tmp_path / "clean"
    invoke("run", folder, "-q", "--threshold", "0.5", "-k", "5", "--keep", "longest", "--write-deduplicated", out)
    assert (out / ".hidden" / "deeper" / "notes.txt").read_text() == "kept"
    assert os.readlink(out / ".hidden" / "link") == "../c.txt"
    assert os.readlink(out / "folder-link") == ".hidden"
    assert os.readlink(out / "broken") == str(tmp_path / "nowhere")
    assert not (out / ".hidden" / "pipe").exists() and not (out / "a1.txt").exists()
    assert (out / "a3.txt").read_text() == DOCS["a3"]


def test_write_deduplicated_without_db_says_what_it_dropped(tmp_path):
    """Without -q and without --db (the run's database is a temporary one), dedup run ended in an
    AssertionError traceback after writing the copy: its summary asked for the keep rule of settings
    that kept no database."""
    lines = tmp_path / "lines.txt"
    lines.write_text("same line\nsame line\nother line\n")
    out = tmp_path / "out.txt"
    result = invoke("run", lines, "--lines", "--write-deduplicated", out)
    assert "clusters: 1 document to drop (--keep first, --resolve verified)" in result.stderr
    assert f"wrote the deduplicated input to {out}" in result.stderr
    assert out.read_text() == "same line\nother line\n"


def test_write_deduplicated_lines_keeps_bytes(tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_bytes("same line\r\nsame line\nother line \u00e9\nsame line\n".encode())
    out = tmp_path / "out.txt"
    invoke("run", lines, "--lines", "-q", "--write-deduplicated", out)
    assert out.read_bytes() == "same line\r\nother line \u00e9\n".encode()


@pytest.mark.parametrize(
    ("data", "copy"),
    [
        (b"same line\r\nother line\r\nsame line", b"same line\r\nother line\r\n"),  # the stray \r case
        (b"same line\r\nother line\r\nsame line\r\n", b"same line\r\nother line\r\n"),
        (b"same line\nother line\nthird one", b"same line\nother line\nthird one"),
    ],
)
def test_write_deduplicated_lines_keeps_each_kept_line_with_its_own_ending(tmp_path, data, copy):
    """A CRLF file without a final line break whose last line was dropped left the line before it
    ending in a stray \\r (its \\n went with the dropped line)."""
    lines = tmp_path / "lines.txt"
    lines.write_bytes(data)
    out = tmp_path / "out.txt"
    invoke("run", lines, "--lines", "-q", "--write-deduplicated", out)
    assert out.read_bytes() == copy


def test_write_deduplicated_lines_named_by_ids_drops_the_duplicates(tmp_path):
    """With --ids the run said "1 documents to drop" and wrote every line: the copy looked the
    dropped ids up among line numbers. The kept lines' ids, in order, are the survivors export."""
    lines, ids = tmp_path / "lines.txt", tmp_path / "ids.txt"
    lines.write_text("same line here\n\nsame line here\nother line\nsame line here\n")
    ids.write_text("x\nempty\ny\nz\nw\n")
    out, survivors = tmp_path / "out.txt", tmp_path / "kept.csv"
    result = invoke(
        "run",
        lines,
        "--lines",
        "--ids",
        ids,
        "-k",
        "3",
        "--write-deduplicated",
        out,
        "--export",
        f"survivors={survivors}",
    )
    assert result.exit_code == 0, result.output
    assert "clusters: 2 documents to drop (--keep first, --resolve verified)" in result.stderr
    assert out.read_text() == "same line here\n\nother line\n"
    assert survivors.read_text() == "id\nx\nempty\nz\n"


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_write_deduplicated_table_keeps_all_columns(tmp_path, suffix):
    source = write_jsonl(tmp_path / "docs.jsonl", DOCS, extra=True)
    out = tmp_path / f"clean{suffix}"
    db = tmp_path / "run.duckdb"
    invoke("run", source, "-q", "--threshold", "0.5", "-k", "5", "--db", db, "--write-deduplicated", out)
    kept = read_back(out, "table")
    assert [row["id"] for row in kept] == ["a1", "b1", "c"]
    assert kept[1] == {"id": "b1", "text": DOCS["b1"], "source": "s0"}
    assert rows(db, "select count(*) from clusters where not is_survivor") == [(3,)]


def parquet_input(tmp_path, columns):
    """A Parquet input of these columns, for the tests of what --write-deduplicated writes of it."""
    source = tmp_path / "docs.parquet"
    pq.write_table(pa.table(columns), source)
    return source


def deduplicated_copy(source, out):
    """The text --write-deduplicated writes of `source` to `out` (its format by extension)."""
    invoke("run", source, "-q", "--write-deduplicated", out)
    return out.read_text(encoding="utf-8")


def test_write_deduplicated_csv_writes_nested_cells_as_json_and_bytes_as_hex(tmp_path):
    """A Parquet table with list, struct, map and binary columns copied as CSV: the cells were
    Python's repr (`{'a': 1}`, `b'\\x00'`), which nothing reads back; now as JSON lines writes them."""
    source = parquet_input(
        tmp_path,
        {
            "id": ["a", "b", "c"],
            "text": ["the quick brown fox jumps over", "the quick brown fox jumps over", "other words, not alike"],
            "tags": [[1, 2], [3], []],
            "meta": [{"a": "é"}, {"a": "x"}, None],
            "blob": [b"\x00\xff", b"", None],
            "pairs": pa.array([[("k", 1)], [], None], pa.map_(pa.string(), pa.int64())),
        },
    )
    assert deduplicated_copy(source, tmp_path / "clean.csv") == (
        'id,text,tags,meta,blob,pairs\na,the quick brown fox jumps over,"[1, 2]","{""a"": ""é""}",00ff,"[[""k"", 1]]"\n'
        'c,"other words, not alike",[],,,\n'
    )


def test_write_deduplicated_jsonl_keeps_every_digit_of_decimals(tmp_path):
    """Decimals were written through a float: a DECIMAL(38, 0) id 12345678901234567891 came out as
    1.2345678901234567e+19 (the id lost) and 1234567890123456789.12 rounded. Now every digit, at the
    top level and inside lists and structs, as DuckDB's own JSON writes them; CSV's nested cells too."""
    from decimal import Decimal

    big = [Decimal("12345678901234567891"), Decimal("12345678901234567892"), Decimal("7")]
    source = parquet_input(
        tmp_path,
        {
            "id": pa.array(big, pa.decimal128(38, 0)),
            "text": ["the quick brown fox jumps over", "the quick brown fox jumps over", "other words"],
            "amount": pa.array([Decimal("1234567890123456789.12"), None, Decimal("0.10")], pa.decimal128(38, 2)),
            "parts": pa.array([[Decimal("99999999999999999.9")], [], None], pa.list_(pa.decimal128(18, 1))),
        },
    )
    as_jsonl = deduplicated_copy(source, tmp_path / "clean.jsonl")
    assert as_jsonl == (
        '{"id": 12345678901234567891, "text": "the quick brown fox jumps over", '
        '"amount": 1234567890123456789.12, "parts": [99999999999999999.9]}\n'
        '{"id": 7, "text": "other words", "amount": 0.10, "parts": null}\n'
    )
    assert [json.loads(line, parse_float=Decimal)["amount"] for line in as_jsonl.splitlines()] == [
        Decimal("1234567890123456789.12"),
        Decimal("0.10"),
    ]
    assert deduplicated_copy(source, tmp_path / "clean.csv").splitlines()[1] == (
        "12345678901234567891,the quick brown fox jumps over,1234567890123456789.12,[99999999999999999.9]"
    )


def test_write_deduplicated_as_text_writes_nanoseconds_and_fixed_size_bytes(tmp_path):
    """A Parquet table with a timestamp[ns] column copied as CSV or JSON lines stopped in a traceback
    (Python's datetime has microseconds); a fixed-size binary column was written as b'ab' in CSV."""
    source = parquet_input(
        tmp_path,
        {
            "id": ["a", "b"],
            "text": ["the quick brown fox jumps over", "other words, not alike"],
            "at": pa.array([1, 1577836800123456789], pa.timestamp("ns")),
            "key": pa.array([b"ab", None], pa.binary(2)),
        },
    )
    as_csv = deduplicated_copy(source, tmp_path / "clean.csv")
    as_jsonl = deduplicated_copy(source, tmp_path / "clean.jsonl")
    assert as_csv.splitlines()[1:] == [
        "a,the quick brown fox jumps over,1970-01-01 00:00:00.000000001,6162",
        'b,"other words, not alike",2020-01-01 00:00:00.123456789,',
    ]
    assert [json.loads(line)["at"] for line in as_jsonl.splitlines()] == [
        "1970-01-01 00:00:00.000000001",
        "2020-01-01 00:00:00.123456789",
    ]


def test_write_deduplicated_refuses_existing_output(tmp_path):
    source = write_jsonl(tmp_path / "docs.jsonl", DOCS)
    result = CliRunner().invoke(app, ["run", str(source), "-q", "--write-deduplicated", str(source)])
    assert result.exit_code == 2 and "overwrite" in result.stderr


def test_run_export_writes_what_dedup_export_writes(tmp_path):
    """`dedup run --export WHAT=FILE` (no --db: the run's own tables) writes the bytes that `dedup export`
    writes from a kept database of the same run, for every kind and format."""
    source = write_jsonl(tmp_path / "docs.jsonl", DOCS)
    options = ["--threshold", "0.5", "-k", "5", "--keep", "longest", "-q"]
    files = {
        (what.value, suffix): tmp_path / f"run-{what.value}{suffix}"
        for what in ExportKind
        for suffix in (".csv", ".parquet", ".json")
    }
    exports = [f"--export={what}={file}" for (what, _), file in files.items()]
    done = invoke("run", source, *options, *exports)
    assert "wrote survivors to" not in done.stderr  # -q
    db = tmp_path / "kept.duckdb"
    invoke("run", source, *options, "--db", db)
    for (what, suffix), file in files.items():
        expected = tmp_path / f"export-{what}{suffix}"
        invoke("export", db, "--what", what, "--output", expected)
        assert file.read_bytes() == expected.read_bytes(), file.name
    assert read_back(files["survivors", ".csv"], "survivors") == [{"id": "a3"}, {"id": "b2"}, {"id": "c"}]


def test_run_export_options_are_checked_before_the_run(tmp_path):
    source = write_jsonl(tmp_path / "docs.jsonl", DOCS)
    for option, message in [
        ("survivors", "--export takes WHAT=FILE"),
        ("kept=out.csv", "cannot export 'kept'"),
        (f"survivors={tmp_path / 'out.xlsx'}", "cannot tell the export format"),
        (f"survivors={tmp_path / 'missing' / 'out.csv'}", "folder of the output file does not exist"),
    ]:
        result = CliRunner().invoke(app, ["run", str(source), "-q", "--export", option])
        assert result.exit_code == 2 and message in result.stderr, (option, result.stderr)
    assert not list(tmp_path.glob("*.csv"))


def test_api_exports_on_duckdb(tmp_path):
    import dedup

    out = tmp_path / "kept.csv"
    dedup.run(documents=list(DOCS.items()), threshold=0.5, shingle_size=5, exports={"survivors": out})
    assert out.read_text() == "id\na1\nb1\nc\n"


texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@hypothesis_settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(texts, unique=True, max_size=6),
    similar=st.lists(st.lists(texts, max_size=3), min_size=6, max_size=6),
    scores=st.lists(st.floats(0, 1), min_size=6, max_size=6),
    batch=st.integers(1, 4),
)
def test_a_json_export_is_streamed_with_the_bytes_of_one_json_dump(ids, similar, scores, batch):
    """.json is written a batch at a time (before: the whole table in memory), byte for byte what
    json.dump(..., indent=1) of the whole value writes, newlines and line separators included."""
    adjacency = pa.table({"id": ids, "similar": similar[: len(ids)]})
    pairs = pa.table({"id_a": ids, "id_b": list(reversed(ids)), "jaccard": scores[: len(ids)]})
    for what, table, value in [
        (ExportKind.adjacency, adjacency, {row["id"]: row["similar"] for row in adjacency.to_pylist()}),
        (ExportKind.pairs, pairs, pairs.to_pylist()),
    ]:
        stream = io.StringIO()
        assert write_json(table.to_batches(max_chunksize=batch), what, stream) == len(ids)
        assert stream.getvalue() == json.dumps(value, ensure_ascii=False, indent=1) + "\n"
