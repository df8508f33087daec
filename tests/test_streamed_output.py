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
