"""`dedup eval` compares lsh with exact on the same input."""

from __future__ import annotations

import reference
from corpora import planted_corpus, write_folder
from typer.testing import CliRunner

from dedup.cli import app
from dedup.evaluation import bucket_edges, evaluate
from dedup.settings import Settings


def test_bucket_edges():
    assert bucket_edges(0.8) == [0.8, 0.85, 0.9, 0.95, 1.0]
    assert bucket_edges(0.93) == [0.93, 0.98, 1.0]


def test_evaluation_counts_match_brute_force(tmp_path):
    docs = planted_corpus(n_base=25, variants=4, seed=21)
    write_folder(tmp_path / "c", docs)
    expected = reference.brute_force_pairs({f"{n}.txt": t for n, t in docs.items()}, 5, 0.7)
    result = evaluate(Settings(inputs=(tmp_path / "c",), threshold=0.7, shingle_size=5, bands=4, rows=32))
    assert result.exact_pairs == len(expected) > 10
    assert sum(b.exact for b in result.buckets) == len(expected)
    assert result.precision == 1.0
    # 4 bands of 32 rows catch few pairs near 0.7: the recall must show the misses
    assert result.recall < 1.0 and result.true_found == sum(b.found for b in result.buckets)


def test_eval_command(tmp_path):
    docs = planted_corpus(n_base=10, variants=3, seed=22)
    write_folder(tmp_path / "c", docs)
    result = CliRunner().invoke(app, ["eval", str(tmp_path / "c"), "-k", "5"])
    assert result.exit_code == 0, result.output
    expected = evaluate(Settings(inputs=(tmp_path / "c",), shingle_size=5, method="exact"))
    lines = result.stdout.splitlines()
    assert lines[0] == f"documents: {expected.documents}"
    assert lines[2] == (
        f"exact pairs: {expected.exact_pairs}  lsh pairs: {expected.found_pairs}  candidates: {expected.candidates}"
    )
    assert lines[3] == f"recall: {expected.recall:.6f}  precision: {expected.precision:.6f}"
    assert expected.exact_pairs > 5
    buckets = [line.split()[:3] for line in lines[6:]]
    assert buckets == [[f"{b.low:.2f}-{b.high:.2f}", str(b.exact), str(b.found)] for b in expected.buckets]
    assert buckets[0][0] == "0.80-0.85"


def test_eval_on_a_sample(tmp_path):
    docs = planted_corpus(n_base=10, variants=3, seed=23)
    write_folder(tmp_path / "c", docs)
    result = CliRunner().invoke(app, ["eval", str(tmp_path / "c"), "-k", "5", "--sample", "12", "--sample-seed", "3"])
    assert result.exit_code == 0, result.output
    assert "documents: 12 (a random sample, seed 3)" in result.stdout
    again = CliRunner().invoke(app, ["eval", str(tmp_path / "c"), "-k", "5", "--sample", "12", "--sample-seed", "3"])
    strip = lambda out: [line for line in out.splitlines() if " s; exact: " not in line]  # noqa: E731
    assert strip(again.stdout) == strip(result.stdout)
    assert CliRunner().invoke(app, ["eval", str(tmp_path / "c"), "--sample", "1"]).exit_code == 2
