"""Outputs are written from a stream of record batches, in bounded memory (issue 23): the bytes are
those of the whole table written at once, whatever the batch sizes."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup import output
from dedup.cli import app
from dedup.output import write_rows

CLOUGH = Path(__file__).resolve().parent.parent / "data" / "clough"


def sample(rows: int) -> pa.Table:
    return pa.table(
        {
            "id_a": [f"doc {i}" for i in range(rows)],
            "id_b": [f'doc, "{i + 1}"' for i in range(rows)],
            "jaccard": [i / 7 for i in range(rows)],
            "estimate": [None if i % 5 == 0 else 1 / (i + 1) for i in range(rows)],
        }
    )


@pytest.mark.parametrize("rows", [0, 1, 2_500])
@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_a_stream_in_any_batches_writes_the_bytes_of_the_whole_table(tmp_path, monkeypatch, rows, suffix):
    monkeypatch.setattr(output, "PARQUET_ROW_GROUP", 1_000)  # several row groups, split across batches
    table = sample(rows)
    whole, streamed = tmp_path / f"whole{suffix}", tmp_path / f"streamed{suffix}"
    write_rows(table, whole)
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=333))
    write_rows(reader, streamed)
    assert whole.read_bytes() == streamed.read_bytes()
    if suffix == ".parquet":
        assert pq.read_table(streamed).equals(table)
        assert pq.ParquetFile(streamed).metadata.num_row_groups == max(1, -(-rows // 1_000))


def test_run_output_is_what_the_api_returns(tmp_path):
    import dedup

    out = tmp_path / "pairs.parquet"
    result = CliRunner().invoke(app, ["run", str(CLOUGH), "-t", "0.5", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert pq.read_table(out).equals(dedup.run(CLOUGH, threshold=0.5))


@pytest.mark.parametrize("size", [1, 5, 64])
def test_batches_with_long_lists_are_cut_by_their_values(size):
    """A batch becomes Python objects when written as text: rows holding long lists (an adjacency
    list of a group of copies) are cut into batches of at most `size` values, a row never split."""
    lengths = [0, 3, 40, 1, 0, 7, 100, 2, 2, 2]
    table = pa.table(
        {"id": [str(i) for i in range(len(lengths))], "similar": [[f"x{j}" for j in range(n)] for n in lengths]}
    )
    parts = list(output.batches(table, size=size))
    assert pa.Table.from_batches(parts).equals(table)
    for part in parts:
        values = part.num_rows + sum(len(v) for v in part.column("similar").to_pylist())
        assert values <= size or part.num_rows == 1
    if size == 64:
        assert [p.num_rows for p in parts] == [6, 1, 3]


def test_a_reader_of_stdout_that_goes_away_ends_the_listing_but_not_the_exports(tmp_path):
    """`dedup run ... --export survivors=s.csv | head -2` exited 0 and never wrote s.csv: the pairs
    were listed before the exports, and the closed pipe ended the command. Now the files asked for
    are written first, and a closed stdout ends the listing alone: the summary follows on stderr."""
    import csv
    import os
    import subprocess
    import sys

    corpus = tmp_path / "copies.csv"
    text = "the same words in every row and long enough to be a document of its own"
    corpus.write_text("id,text\n" + "".join(f"{i:04d},{text}\n" for i in range(400)))  # 79,800 pairs
    survivors, duplicates = tmp_path / "s.csv", tmp_path / "d.csv"
    command = [sys.executable, "-m", "dedup", "run", str(corpus), "--format", "csv"]
    command += ["--export", f"survivors={survivors}", "--export", f"duplicates={duplicates}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
    assert process.stdout is not None and process.stderr is not None
    head = [process.stdout.readline() for _ in range(2)]
    process.stdout.close()  # as `| head -2` does, long before the 79,800 pairs are listed
    assert process.wait(timeout=120) == 0
    assert head[0] == b"id_a,id_b,jaccard,estimate\n" and head[1].startswith(b"0000,0001,1.0,")
    with survivors.open() as file:
        assert [row["id"] for row in csv.DictReader(file)] == ["0000"]
    with duplicates.open() as file:
        assert len(list(csv.DictReader(file))) == 399
    said = process.stderr.read().decode()
    assert f"wrote survivors to {survivors}" in said and "pairs: 79,800" in said
