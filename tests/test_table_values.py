"""A table's ids and texts are read as they are written: no cell is re-typed on the way in.

The pairs name the documents by the ids of the input, so an id that changes on reading (a CSV's
`007` read as the number 7, a 20-digit id rounded to a float, a JSON string that looks like a
date read as a timestamp) is a wrong answer given in silence.
"""

from __future__ import annotations

import csv
import decimal
import io
import json

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app

runner = CliRunner()
TEXT = "the quick brown fox jumps over the lazy dog"


def run_csv(args: list[str]) -> list[dict[str, str]]:
    result = runner.invoke(app, ["run", *args, "--threshold", "0.5", "-q", "--format", "csv"])
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


@pytest.mark.parametrize(
    "ids",
    [
        ["007", "0042"],
        ["007", "7"],
        ["12345678901234567890", "12345678901234567891"],
        ["2024-01-01 10:00", "2024-01-02"],
        ["1.50", "2"],
    ],
)
def test_csv_ids_are_read_as_written(tmp_path, ids):
    corpus = tmp_path / "docs.csv"
    with corpus.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "text"])
        writer.writerows([doc_id, TEXT] for doc_id in ids)
    pairs = run_csv([str(corpus)])
    assert [(p["id_a"], p["id_b"]) for p in pairs] == [tuple(sorted(ids))]


def test_csv_texts_that_look_like_numbers_or_nulls_are_documents(tmp_path):
    corpus = tmp_path / "docs.csv"
    corpus.write_text("id,text\na,12345\nb,12345\nc,NA\nd,NA\n")
    pairs = run_csv([str(corpus)])
    assert [(p["id_a"], p["id_b"]) for p in pairs] == [("a", "b"), ("c", "d")]


def test_deduplicated_csv_keeps_every_other_cell_as_written(tmp_path):
    corpus = tmp_path / "docs.csv"
    corpus.write_text(f"id,zip,text\na,00501,{TEXT}\nb,02134,{TEXT}\nc,1e3,something else entirely\n")
    out = tmp_path / "kept.csv"
    result = runner.invoke(
        app, ["run", str(corpus), "-q", "--write-deduplicated", str(out), "-o", str(tmp_path / "p.csv")]
    )
    assert result.exit_code == 0, result.output
    kept = pcsv.read_csv(out, convert_options=pcsv.ConvertOptions(column_types={"zip": "string"}))
    assert kept.column("zip").to_pylist() == ["00501", "1e3"]


def write_jsonl(path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_jsonl_strings_that_look_like_dates_stay_strings(tmp_path):
    corpus = tmp_path / "docs.jsonl"
    ids = ["2024-01-01", "2024-01-02T10:00:00"]
    write_jsonl(corpus, [{"id": ids[0], "text": "2024-01-01"}, {"id": ids[1], "text": "2024-01-01"}])
    assert [(p["id_a"], p["id_b"]) for p in run_csv([str(corpus)])] == [tuple(ids)]


def test_deduplicated_jsonl_keeps_date_strings(tmp_path):
    corpus, out = tmp_path / "docs.jsonl", tmp_path / "kept.jsonl"
    write_jsonl(corpus, [{"id": "a", "day": "2024-01-01", "text": TEXT}, {"id": "b", "day": "2024-01-02", "text": "x"}])
    result = runner.invoke(
        app, ["run", str(corpus), "-q", "--write-deduplicated", str(out), "-o", str(tmp_path / "p.csv")]
    )
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["day"] for line in out.read_text().splitlines()] == ["2024-01-01", "2024-01-02"]


def test_jsonl_ids_beyond_64_bits_are_refused_not_rounded(tmp_path):
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text(f'{{"id": 12345678901234567891, "text": "{TEXT}"}}\n{{"id": 5, "text": "{TEXT}"}}\n')
    result = runner.invoke(app, ["run", str(corpus), "-q"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert "id column 'id' holds integers beyond 64 bits" in result.output


def test_parquet_id_and_text_columns_of_every_plain_type_are_read(tmp_path):
    corpus = tmp_path / "docs.parquet"
    table = pa.table(
        {
            "id": pa.array([2**64 - 1, 2**63, 5], pa.uint64()),  # hash ids beyond the signed range
            "text": pa.array([TEXT, TEXT, "something else"]).dictionary_encode(),  # a pandas category
            "body": pa.array([TEXT, TEXT, "other"], pa.string_view()),
        }
    )
    pq.write_table(table, corpus)
    assert [(p["id_a"], p["id_b"]) for p in run_csv([str(corpus)])] == [(str(2**63), str(2**64 - 1))]
    assert len(run_csv([str(corpus), "--text-column", "body"])) == 1


@pytest.mark.parametrize(
    "column,message",
    [
        (pa.array([[1], [2]]), "id column 'id' has type list<element: int64>; ids are numbers or strings"),
        (pa.array([{"a": 1}, {"a": 2}]), "id column 'id' has type struct<a: int64>; ids are numbers or strings"),
        (pa.array([b"a\xff", b"b"]), "id column 'id' holds text that is not valid UTF-8"),
    ],
)
def test_ids_that_cannot_be_ids_are_one_line_errors(tmp_path, column, message):
    corpus = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": column, "text": [TEXT, TEXT]}), corpus)
    result = runner.invoke(app, ["run", str(corpus), "-q"])
    assert (result.exit_code, result.output) == (1, f"Error: {corpus}: {message}\n")


@pytest.mark.parametrize(
    "name,content,message",
    [
        (
            "docs.jsonl",
            b'{"id": "a", "text": "caf\xe9"}\n{"id": "b", "text": "cafe"}\n',
            "text column 'text' holds text that is not valid UTF-8",
        ),
        (
            "docs.csv",
            f"id,text,text\na,{TEXT},x\nb,{TEXT},y\n".encode(),
            "2 columns are named 'text'; which one is meant?",
        ),
    ],
)
def test_tables_that_cannot_be_read_as_documents_are_one_line_errors(tmp_path, name, content, message):
    corpus = tmp_path / name
    corpus.write_bytes(content)
    result = runner.invoke(app, ["run", str(corpus), "-q"])
    assert (result.exit_code, result.output) == (1, f"Error: {corpus}: {message}\n")


@pytest.mark.parametrize("suffix,delimiter", [(".csv", ","), (".tsv", "\t")])
def test_a_stray_quote_that_would_join_rows_is_an_error_naming_its_line(tmp_path, suffix, delimiter):
    corpus = tmp_path / f"docs{suffix}"
    rows = ["id", "text"], ["1", '"Hello world'], ["2", "foo bar baz"], ["3", 'bar" she said'], ["4", "last one"]
    corpus.write_text("".join(delimiter.join(row) + "\n" for row in rows))
    result = runner.invoke(app, ["run", str(corpus), "-q"])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {corpus}: line 4: a quoted value does not end at a {delimiter!r}")
    assert result.output.count("\n") == 1


def test_quoted_values_spanning_lines_are_read_whole(tmp_path):
    corpus = tmp_path / "docs.csv"
    long_text = "\n".join(TEXT for _ in range(4000))  # past Python csv's default field limit of 128 KiB
    with corpus.open("w", newline="") as f:
        csv.writer(f).writerows([["id", "text"], ["a", long_text], ["b", long_text + '\r\n"quoted"'], ["c", "x"]])
    assert [(p["id_a"], p["id_b"]) for p in run_csv([str(corpus)])] == [("a", "b")]


@pytest.mark.parametrize("kind", ["dictionary", "string_view", "binary", "uint64"])
def test_deduplicated_parquet_drops_the_duplicates_whatever_the_id_type(tmp_path, kind):
    values = pa.array([1, 2, 3], pa.uint64()) if kind == "uint64" else pa.array(["a", "b", "c"])
    ids = {"dictionary": values.dictionary_encode(), "uint64": values}.get(kind) or values.cast(getattr(pa, kind)())
    corpus, out = tmp_path / "docs.parquet", tmp_path / "kept.parquet"
    pq.write_table(pa.table({"id": ids, "text": [TEXT, TEXT, "something else"]}), corpus)
    result = runner.invoke(
        app, ["run", str(corpus), "-q", "--write-deduplicated", str(out), "-o", str(tmp_path / "p.csv")]
    )
    assert result.exit_code == 0, result.output
    assert pq.read_table(out).column("text").to_pylist() == [TEXT, "something else"]


LATIN1_FOX = "caf\xe9 cr\xe8me br\xfbl\xe9e and the quick brown fox"


@pytest.mark.parametrize("suffix,delimiter", [(".csv", ","), (".tsv", "\t")])
def test_csv_cells_that_are_not_utf8_are_read_as_latin1_and_counted(tmp_path, suffix, delimiter):
    """A Latin-1 (cp1252) export was refused whole, though a text file falls back to Latin-1: each
    cell that is not UTF-8 is now read as Latin-1, as a line of a --lines file is, and counted."""
    corpus = tmp_path / f"docs{suffix}"
    rows = [("n\xe9e", LATIN1_FOX, "latin-1"), ("b", LATIN1_FOX, "utf-8"), ("c", TEXT, "utf-8"), ("d", "x", "latin-1")]
    corpus.write_bytes(
        f"id{delimiter}text{delimiter}note\n".encode()
        + b"".join(f"{i}{delimiter}{t}{delimiter}\xe0 {n}\n".encode(n) for i, t, n in rows)
    )
    result = runner.invoke(app, ["run", str(corpus), "--threshold", "0.5", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert [row[:2] for row in csv.reader(io.StringIO(result.stdout))][1:] == [["b", "n\xe9e"]]
    assert "4 read = 4 processed + 0 empty + 0 skipped (1 decoded as Latin-1)" in result.stderr
    out = tmp_path / "kept.csv"
    result = runner.invoke(app, ["run", str(corpus), "-t", "0.5", "-q", "--write-deduplicated", str(out)])
    assert result.exit_code == 0, result.output
    kept = list(csv.reader(io.StringIO(out.read_text("utf-8"))))  # written as UTF-8 text
    assert kept == [
        ["id", "text", "note"],
        ["n\xe9e", LATIN1_FOX, "\xe0 latin-1"],
        ["c", TEXT, "\xe0 utf-8"],
        ["d", "x", "\xe0 latin-1"],
    ]


def test_parquet_texts_that_are_not_utf8_are_read_as_latin1_and_counted(tmp_path):
    """Texts: as a text file (Latin-1 when not UTF-8, counted); ids must be UTF-8 (an error, above)."""
    raw = pa.array([LATIN1_FOX.encode("latin-1"), LATIN1_FOX.encode(), None, TEXT.encode()], pa.binary())
    unchecked = pa.StringArray.from_buffers(len(raw), raw.buffers()[1], raw.buffers()[2], raw.buffers()[0])
    for name, texts in (("string", unchecked), ("binary", raw)):
        corpus = tmp_path / f"{name}.parquet"
        pq.write_table(pa.table({"id": ["a", "b", "c", "d"], "text": texts}), corpus)
        result = runner.invoke(app, ["run", str(corpus), "--threshold", "0.5", "--format", "csv"])
        assert result.exit_code == 0, result.output
        assert [row[:3] for row in csv.reader(io.StringIO(result.stdout))][1:] == [["a", "b", "1.0"]]
        assert "4 read = 3 processed + 0 empty + 1 skipped (1 decoded as Latin-1)" in result.stderr
        # written back as the run read the texts (a traceback for CSV/JSON lines; a binary text was
        # written as a Python bytes literal), or as they were (Parquet)
        kept = {}
        for suffix in (".csv", ".jsonl", ".parquet"):
            out = tmp_path / f"{name}-kept{suffix}"
            done = runner.invoke(app, ["run", str(corpus), "-t", "0.5", "-q", "--write-deduplicated", str(out)])
            assert done.exit_code == 0, done.output
            kept[suffix] = out
        assert list(csv.reader(io.StringIO(kept[".csv"].read_text("utf-8")))) == [
            ["id", "text"],
            ["a", LATIN1_FOX],
            ["c", ""],
            ["d", TEXT],
        ]
        assert [json.loads(line)["text"] for line in kept[".jsonl"].read_text("utf-8").splitlines()] == [
            LATIN1_FOX,
            None,
            TEXT,
        ]
        written = pq.read_table(kept[".parquet"]).column("text").cast(pa.binary()).to_pylist()
        assert written == [LATIN1_FOX.encode("latin-1"), None, TEXT.encode()]


@pytest.mark.parametrize(
    "ids,names",
    [
        (pa.array([0.1, 0.2], pa.float32()), ["0.1", "0.2"]),
        (pa.array([1, 2], pa.duration("s")), ["1", "2"]),
        (pa.array([1, 2], pa.timestamp("s")), ["1970-01-01 00:00:01.000", "1970-01-01 00:00:02.000"]),
        (pa.array([19723, 19724], pa.date32()), ["2024-01-01", "2024-01-02"]),
        (pa.array([decimal.Decimal("1.10"), decimal.Decimal("2.00")], pa.decimal128(5, 2)), ["1.10", "2.00"]),
        (pa.array([False, True]), ["false", "true"]),
    ],
)
def test_ids_of_other_types_are_named_as_arrow_writes_them_and_deduplicated(tmp_path, ids, names):
    """Such ids went through Python values: a float32 0.1 became 0.10000000149011612 and a duration
    of 1 s 1000000 (ids renamed in silence), and --write-deduplicated stopped with a traceback."""
    corpus = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": ids, "text": [TEXT, TEXT + "!"]}), corpus)
    assert [(p["id_a"], p["id_b"]) for p in run_csv([str(corpus)])] == [tuple(names)]
    out = tmp_path / "kept.parquet"
    result = runner.invoke(app, ["run", str(corpus), "-t", "0.5", "-q", "--write-deduplicated", str(out)])
    assert result.exit_code == 0, result.output
    assert pq.read_table(out).column("id").to_pylist() == ids[:1].to_pylist()


def test_a_lone_cr_in_a_text_or_an_id_reads_back_from_every_csv_dedup_writes(tmp_path):
    """csv.writer quoted a cell only for the characters of its "\\n" terminator, so a lone CR was
    written bare and read back as a line break: the deduplicated copy split a document in two rows,
    and pyarrow, DuckDB and dedup refused it. Every CSV dedup writes reads back cell for cell."""
    corpus = tmp_path / "in.csv"
    rows = [["1", "old mac\rtext"], ["x\ry", TEXT], ["3", TEXT], ["4", TEXT + " and more"]]
    with corpus.open("w", newline="") as f:
        csv.writer(f).writerows([["id", "text"], *rows])
    copy, pairs, duplicates = tmp_path / "out.csv", tmp_path / "pairs.csv", tmp_path / "dups.csv"
    db, exported = tmp_path / "run.duckdb", tmp_path / "exported.csv"
    result = runner.invoke(
        app,
        ["run", str(corpus), "-q", "--threshold", "0.5", "--db", str(db), "-o", str(pairs)]
        + ["--export", f"duplicates={duplicates}", "--write-deduplicated", str(copy)],
    )
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["export", str(db), "--what", "pairs", "-o", str(exported)]).exit_code == 0
    streamed = runner.invoke(app, ["run", str(corpus), "-q", "--threshold", "0.5", "--format", "csv"])
    assert streamed.exit_code == 0, streamed.output

    def cells(text: str | bytes, columns: int = 2) -> list[list[str]]:
        data = io.BytesIO(text if isinstance(text, bytes) else text.encode())
        read = pcsv.read_csv(data, convert_options=pcsv.ConvertOptions(strings_can_be_null=False))
        return [row[:columns] for row in zip(*(c.to_pylist() for c in read.columns), strict=True)]

    expected_pairs = [["3", "x\ry"], ["3", "4"], ["4", "x\ry"]]
    for text in (pairs.read_bytes(), exported.read_bytes(), streamed.stdout):
        assert [[str(a), str(b)] for a, b in cells(text)] == expected_pairs
    assert [[str(a), b] for a, b in cells(duplicates.read_bytes())] == [["3", "x\ry"], ["4", "x\ry"]]
    assert [[str(a), b] for a, b in cells(copy.read_bytes())] == rows[:2]
    # dedup reads its own copy back: the two documents it kept, the CR text whole
    again = runner.invoke(app, ["run", str(copy), "-q", "--threshold", "0.5", "--db", str(tmp_path / "again.duckdb")])
    assert again.exit_code == 0, again.output
