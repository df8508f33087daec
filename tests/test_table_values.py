"""A table's ids and texts are read as they are written: no cell is re-typed on the way in.

The pairs name the documents by the ids of the input, so an id that changes on reading (a CSV's
`007` read as the number 7, a 20-digit id rounded to a float, a JSON string that looks like a
date read as a timestamp) is a wrong answer given in silence.
"""

from __future__ import annotations

import csv
import io

import pyarrow.csv as pcsv
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
