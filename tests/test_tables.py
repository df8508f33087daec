"""Tables as data engineers store them: .tsv, gzip-compressed csv/tsv/jsonl, Parquet datasets,
--delimiter, a CSV error that names its line; `-` for standard input and `--output -`."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest
from corpora import planted_corpus
from typer.testing import CliRunner

from dedup.cli import app

DOCS = planted_corpus(6, 2, seed=21)


def pairs_csv(*args: object, stdin: str | None = None) -> str:
    result = CliRunner().invoke(app, ["run", *(str(a) for a in args), "-q", "--format", "csv"], input=stdin)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def expected(tmp_path):
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": list(DOCS), "text": list(DOCS.values())}), path)
    out = pairs_csv(path, "--threshold", "0.6")
    assert out.count("\n") > 2
    return out


def write_delimited(path, delimiter: str, compress: bool = False) -> None:
    lines = [f"id{delimiter}text"] + [f"{i}{delimiter}{t}" for i, t in DOCS.items()]
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data) if compress else data)


@pytest.mark.parametrize("name", ["docs.tsv", "docs.tsv.gz", "docs.csv.gz", "docs.jsonl.gz"])
def test_compressed_and_tab_separated_tables(tmp_path, expected, name):
    path = tmp_path / name
    if ".jsonl" in name:
        body = "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in DOCS.items()).encode()
        path.write_bytes(gzip.compress(body))
    else:
        write_delimited(path, "\t" if ".tsv" in name else ",", compress=name.endswith(".gz"))
    assert pairs_csv(path, "--threshold", "0.6") == expected


def test_a_folder_of_parquet_files_is_one_table(tmp_path, expected):
    folder = tmp_path / "dataset"
    folder.mkdir()
    items = list(DOCS.items())
    for part in range(3):
        chunk = items[part::3]
        pq.write_table(
            pa.table({"id": [i for i, _ in chunk], "text": [t for _, t in chunk]}), folder / f"part-{part}.parquet"
        )
    (folder / "_SUCCESS").write_text("")
    assert pairs_csv(folder, "--threshold", "0.6") == expected


def test_a_folder_is_a_dataset_when_every_file_but_hidden_ones_is_parquet(tmp_path):
    from dedup.corpus.tables import table_format

    folder = tmp_path / "data"
    (folder / "k=1").mkdir(parents=True)
    assert table_format(folder) is None  # no file at all
    (folder / "_SUCCESS").write_text("")
    (folder / ".part.crc").write_text("")
    (folder / "gone.txt").symlink_to(tmp_path / "missing")  # a broken link is no file
    assert table_format(folder) is None  # hidden names only
    pq.write_table(pa.table({"text": ["a"]}), folder / "k=1" / "part-0.parquet")
    assert table_format(folder) == "parquet"
    (folder / "k=1" / "notes.TXT").write_text("a note")
    assert table_format(folder) is None  # one text file anywhere: a folder of documents
    (folder / "k=1" / "notes.TXT").unlink()
    (folder / "z.PARQUET").write_bytes((folder / "k=1" / "part-0.parquet").read_bytes())
    assert table_format(folder) == "parquet"


def test_delimiter_and_a_csv_error_that_names_the_line(tmp_path, expected):
    path = tmp_path / "docs.csv"
    write_delimited(path, ";")
    assert pairs_csv(path, "--threshold", "0.6", "--delimiter", ";") == expected
    broken = tmp_path / "broken.csv"
    pcsv.write_csv(pa.table({"id": ["a", "b"], "text": ["one\nline two", "fine"]}), broken)
    with broken.open("a") as stream:
        stream.write('"c","bad","row"\n')
    result = CliRunner().invoke(app, ["run", str(broken)])
    assert result.exit_code == 1 and "line 5" in result.stderr and "expected 2 fields" in result.stderr
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "a.txt").write_text("x")
    result = CliRunner().invoke(app, ["run", str(folder), "--delimiter", ";"])
    assert result.exit_code == 2 and "--delimiter applies to .csv and .tsv" in result.stderr


def test_stdin_and_stdout(tmp_path):
    lines = "".join(text + "\n" for text in DOCS.values())
    from_file = tmp_path / "lines.txt"
    from_file.write_text(lines)
    expected = pairs_csv(from_file, "--lines", "--threshold", "0.6")
    assert pairs_csv("-", "--threshold", "0.6", "--output", "-", stdin=lines) == expected
    done = subprocess.run(
        [sys.executable, "-m", "dedup", "run", "-", "--threshold", "0.6", "-o", "-", "--format", "csv", "-q"],
        input=lines, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout == expected


@pytest.mark.parametrize("name", ["docs.tsv", "docs.csv.gz", "dataset"])
def test_write_deduplicated_reads_every_table_form(tmp_path, name):
    docs = {"a": "the same text about boats and the sea", "b": "the same text about boats and the sea", "c": "x y z"}
    source = tmp_path / name
    if name == "dataset":
        source.mkdir()
        pq.write_table(pa.table({"id": list(docs)[:2], "text": list(docs.values())[:2]}), source / "p0.parquet")
        pq.write_table(pa.table({"id": ["c"], "text": ["x y z"]}), source / "p1.parquet")
    else:
        delimiter = "\t" if name.endswith(".tsv") else ","
        body = f"id{delimiter}text\n" + "".join(f"{i}{delimiter}{t}\n" for i, t in docs.items())
        source.write_bytes(gzip.compress(body.encode()) if name.endswith(".gz") else body.encode())
    out = tmp_path / "kept.parquet"
    result = CliRunner().invoke(app, ["run", str(source), "-q", "--write-deduplicated", str(out)])
    assert result.exit_code == 0, result.stderr
    assert sorted(pq.read_table(out).column("id").to_pylist()) == ["a", "c"]


def test_write_deduplicated_keeps_a_partitioned_dataset_s_partition_column(tmp_path):
    """The copy of a hive-partitioned dataset keeps its partition column `k`, with its values, as the
    run read the folder (from the files dedup lists, not pyarrow's discovery)."""
    source = tmp_path / "dataset"
    for k, rows in (
        ("1", {"id": ["a", "b"], "text": ["the same text about boats"] * 2}),
        ("2", {"id": ["c"], "text": ["x y z"]}),
    ):
        (source / f"k={k}").mkdir(parents=True)
        pq.write_table(pa.table(rows), source / f"k={k}" / "p.parquet")
    out = tmp_path / "kept.parquet"
    result = CliRunner().invoke(app, ["run", str(source), "-q", "--write-deduplicated", str(out)])
    assert result.exit_code == 0, result.stderr
    kept = pq.read_table(out)
    assert kept.column_names == ["id", "text", "k"]
    assert kept.column("id").to_pylist() == ["a", "c"] and kept.column("k").to_pylist() == [1, 2]
