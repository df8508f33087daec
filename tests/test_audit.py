"""dedup audit: the exact search of a sample against the truth of `--method exact`, on the bundled
and shared corpora, with the default banding and with one that misses most pairs."""

from __future__ import annotations

import csv
import json
import shutil

import pytest
from conftest import REPO
from typer.testing import CliRunner

from dedup.cli import app
from dedup.index.audit import wilson

runner = CliRunner()


def pairs_of(path) -> dict[tuple[str, str], float]:
    with path.open() as file:
        return {tuple(sorted((r["id_a"], r["id_b"]))): float(r["jaccard"]) for r in csv.DictReader(file)}


def audited(db, *options: str) -> dict:
    done = runner.invoke(app, ["audit", str(db), "--format", "json", *options])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def check_against_truth(tmp_path, inputs: str, threshold: float, sample: int, *options: str) -> dict:
    """Truth by --method exact; an index by LSH with `options`; the audit of `sample` documents:
    its true pairs are the truth's pairs touching the sample (with the same Jaccard bits), its
    found pairs those of them the index holds, its missed pairs the rest."""
    common = [inputs, "--threshold", str(threshold), "-q", *options]
    truth_file, found_file, db = tmp_path / "truth.csv", tmp_path / "found.csv", tmp_path / "index.duckdb"
    done = runner.invoke(app, ["run", *common, "--method", "exact", "-o", str(truth_file)])
    assert done.exit_code == 0, done.output
    banding = [o for o in options if o] if "--bands" in options else []
    done = runner.invoke(app, ["run", *common, *banding, "--db", str(db), "-o", str(found_file)])
    assert done.exit_code == 0, done.output
    truth, found = pairs_of(truth_file), set(pairs_of(found_file))
    result = audited(db, "--sample", str(sample), "--seed", "3")
    sample_ids = {str(i) for i in result["sample"]}
    touching = {pair: value for pair, value in truth.items() if sample_ids & set(pair)}
    assert result["true_pairs"] == len(touching)
    assert result["found_pairs"] == len(set(touching) & found)
    missed = {tuple(sorted((str(m["id_a"]), str(m["id_b"])))): m["jaccard"] for m in result["missed"]}
    assert missed == {pair: touching[pair] for pair in set(touching) - found}
    assert result["extra"] == 0
    return result


def test_the_audit_of_every_document_is_the_exact_truth_under_a_banding_that_misses(tmp_path):
    result = check_against_truth(tmp_path, str(REPO / "data" / "clough"), 0.5, 1000, "--bands", "4", "--rows", "32")
    assert result["true_pairs"] == 16 and result["found_pairs"] == 0  # 4 bands of 32 rows find nothing at 0.5
    assert (result["recall"], result["recall_low"]) == (0.0, 0.0) and 0.19 < result["recall_high"] < 0.2


@pytest.mark.parametrize(
    ("corpus", "threshold", "options"),
    [
        ("textreuse/legal", 0.2, ("--shingle-type", "word", "-k", "3")),
        ("textreuse/ats", 0.1, ("--shingle-type", "word", "-k", "5", "--bands", "8", "--rows", "16")),
        (
            "clough-stevenson-plagiarism/documents.parquet",
            0.3,
            ("--id-column", "id", "--text-column", "text", "--bands", "16", "--rows", "8"),
        ),
    ],
)
def test_a_sample_of_the_shared_corpora_is_audited_exactly(shared_corpora, tmp_path, corpus, threshold, options):
    result = check_against_truth(tmp_path, str(shared_corpora / corpus), threshold, 40, *options)
    assert result["true_pairs"] > 0


def test_copies_count_as_the_pairs_they_are_and_the_sample_is_seeded(tmp_path):
    folder = tmp_path / "corpus"
    shutil.copytree(REPO / "data" / "clough", folder)
    for i in range(3):  # four copies of one text: six pairs of Jaccard 1
        shutil.copy(folder / "orig_taska.txt", folder / f"zz_copy{i}.txt")
    result = check_against_truth(tmp_path, str(folder), 0.5, 1000)
    assert (
        result["recall"] == 1.0 and result["true_pairs"] == 16 + 6 + 3 * 2
    )  # 16 pairs, 6 between copies, 2 of the original's each
    db = tmp_path / "index.duckdb"
    first, again = audited(db, "--sample", "10", "--seed", "1"), audited(db, "--sample", "10", "--seed", "1")
    assert first["sample"] == again["sample"] and len(first["sample"]) == 10
    assert audited(db, "--sample", "10", "--seed", "2")["sample"] != first["sample"]
    done = runner.invoke(app, ["audit", str(db), "--sample", "1000"])
    assert done.exit_code == 0
    assert done.stdout.splitlines()[:4] == [
        "sample: 103 of 103 documents (seed 0)",
        "true pairs: 28 with Jaccard >= 0.5 (exact search)",
        "found pairs: 28 in the index",
        "recall: 1.0000 (95 % Wilson interval 0.8794-1.0000)",
    ]


def test_an_audit_of_no_index_fails_in_one_line(tmp_path):
    done = runner.invoke(app, ["audit", str(tmp_path / "none.duckdb")])
    assert done.exit_code == 2 and "no database at" in done.stderr


def test_wilson_interval_matches_published_values():
    low, high = wilson(8, 10)  # Wilson 1927; Newcombe 1998, Table I: 0.490-0.943
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0
