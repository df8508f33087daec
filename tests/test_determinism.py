"""Determinism: byte-identical output whatever the thread count, input order, or resumption."""

from __future__ import annotations

import random
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from corpora import planted_corpus, write_folder
from typer.testing import CliRunner

from dedup.cli import app

pytestmark = pytest.mark.slow  # subprocesses and repeated runs: the second phase of the test command

runner = CliRunner()
OPTIONS = ["-t", "0.5", "-k", "5"]


@pytest.fixture(scope="module")
def docs() -> dict[str, str]:
    return planted_corpus(150, 3, seed=5, words=60)


def run_cli(*args: str) -> str:
    result = runner.invoke(app, ["run", *args, *OPTIONS, "--format", "csv", "-q"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("\n") > 50
    return result.stdout


def test_thread_counts_give_identical_bytes_in_every_format(docs, tmp_path):
    folder = tmp_path / "corpus"
    write_folder(folder, docs)
    outputs = {}
    for threads in (1, 2, 4):
        files = []
        for extension in ("csv", "jsonl", "parquet"):
            target = tmp_path / f"t{threads}.{extension}"
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "dedup",
                    "run",
                    str(folder),
                    *OPTIONS,
                    "--threads",
                    str(threads),
                    "-q",
                    "-o",
                    str(target),
                ],
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stderr
            files.append(target.read_bytes())
        outputs[threads] = files
    assert outputs[1] == outputs[2] == outputs[4]


def test_files_listed_in_any_order_give_identical_bytes(docs, tmp_path):
    folder = tmp_path / "corpus"
    write_folder(folder, docs)
    files = sorted(str(p) for p in folder.iterdir())
    shuffled = list(files)
    random.Random(1).shuffle(shuffled)
    assert shuffled != files
    assert run_cli(*files) == run_cli(*shuffled) == run_cli(*reversed(files))


@pytest.mark.parametrize("extension", ["parquet", "csv", "jsonl"])
def test_shuffled_table_rows_give_identical_bytes(docs, tmp_path, extension):
    items = list(docs.items())
    outputs = []
    for seed in (None, 1, 2):
        rows = list(items)
        if seed is not None:
            random.Random(seed).shuffle(rows)
        table = pa.table({"id": [i for i, _ in rows], "text": [t for _, t in rows]})
        path = tmp_path / f"docs-{seed}.{extension}"
        if extension == "parquet":
            pq.write_table(table, path)
        elif extension == "csv":
            import pyarrow.csv as pcsv

            pcsv.write_csv(table, path)
        else:
            path.write_text("".join(f'{{"id": "{i}", "text": "{t}"}}\n' for i, t in rows), encoding="utf-8")
        outputs.append(run_cli(str(path)))
    assert outputs[0] == outputs[1] == outputs[2]


def test_resumed_run_gives_identical_bytes_to_a_fresh_one(docs, tmp_path):
    folder = tmp_path / "corpus"
    write_folder(folder, docs)
    db = tmp_path / "run.duckdb"
    runner.invoke(app, ["run", str(folder), "--db", str(db), "-k", "9", "-q"])  # leaves documents for reuse
    resumed = run_cli(str(folder), "--db", str(db))
    again = run_cli(str(folder), "--db", str(db))  # every stage reused
    assert resumed == again == run_cli(str(folder))


def test_folder_and_table_of_the_same_documents_pair_the_same(docs, tmp_path):
    folder = tmp_path / "corpus"
    write_folder(folder, docs)
    table = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": [f"{i}.txt" for i in docs], "text": list(docs.values())}), table)
    assert run_cli(str(folder)) == run_cli(str(table))
