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
    result = evaluate(Settings.of(inputs=(tmp_path / "c",), threshold=0.7, shingle_size=5, bands=4, rows=32))
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
    expected = evaluate(Settings.of(inputs=(tmp_path / "c",), shingle_size=5, method="exact"))
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
    assert _figures(again.stdout) == _figures(result.stdout)
    assert CliRunner().invoke(app, ["eval", str(tmp_path / "c"), "--sample", "1"]).exit_code == 2


def _figures(output: str) -> list[str]:
    return [line for line in output.splitlines() if " s; exact: " not in line]


def test_eval_reads_standard_input_once(tmp_path):
    """Both runs read the input: standard input gave the exact run nothing (precision 0)."""
    docs = planted_corpus(n_base=10, variants=3, seed=24)
    text = "".join(" ".join(t.split()) + "\n" for t in docs.values())
    (tmp_path / "docs.txt").write_text(text)
    from_file = CliRunner().invoke(app, ["eval", str(tmp_path / "docs.txt"), "--lines", "-k", "5", "-t", "0.5"])
    from_stdin = CliRunner().invoke(app, ["eval", "-", "-k", "5", "-t", "0.5"], input=text)
    assert from_file.exit_code == from_stdin.exit_code == 0, from_stdin.output
    assert "precision: 1.000000" in from_stdin.stdout
    assert _figures(from_stdin.stdout) == _figures(from_file.stdout)
    assert int(from_file.stdout.split("exact pairs: ")[1].split()[0]) > 5


def test_eval_reads_a_named_pipe_once(tmp_path):
    import os
    import subprocess
    import sys
    import threading

    docs = planted_corpus(n_base=8, variants=3, seed=25)
    text = "".join(" ".join(t.split()) + "\n" for t in docs.values())
    (tmp_path / "docs.txt").write_text(text)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_text, args=(text,))
    writer.start()
    command = [sys.executable, "-m", "dedup", "eval", "--lines", "-k", "5", "-t", "0.5"]
    from_pipe = subprocess.run([*command, str(pipe)], capture_output=True, text=True, timeout=120)
    writer.join(timeout=10)
    from_file = subprocess.run([*command, str(tmp_path / "docs.txt")], capture_output=True, text=True, timeout=120)
    assert from_pipe.returncode == from_file.returncode == 0, from_pipe.stderr
    assert _figures(from_pipe.stdout) == _figures(from_file.stdout)
    assert "precision: 1.000000" in from_pipe.stdout


def test_eval_without_any_pair_claims_no_recall(tmp_path):
    """`dedup eval` on an empty folder (or any input without a pair) printed recall 1.000000: 0 of
    0 found is no measurement."""
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(app, ["eval", str(tmp_path / "empty")])
    assert result.exit_code == 0, result.output
    assert "recall: - (no pair at Jaccard >= 0.8 to find)" in result.stdout
    assert "recall: 1.0" not in result.stdout
