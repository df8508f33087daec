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
from dedup.recall import wilson

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
    assert done.stdout.splitlines()[:5] == [
        "sample: 103 of 103 documents (seed 0)",
        "true pairs: 28 with Jaccard >= 0.5 (exact search)",
        "found pairs: 28 in the index",
        "recall: 1.0000 (95 % Wilson interval 0.8794-1.0000)",
        "between different texts: recall 1.0000 (95 % 0.8513-1.0000): 22 of 22 pairs found; "
        "the other 6 join exact copies (6 found)",
    ]


def test_the_recall_between_different_texts_is_told_apart_from_the_copies(tmp_path):
    """On a corpus of many copies nearly every true pair joins two copies of one text, which LSH
    cannot miss (they collide in every band): the recall over all pairs hid how many near
    duplicates a banding missed. Under a banding that finds no pair at 0.5, the copies' pairs are
    found and the others not: both recalls are said."""
    folder = tmp_path / "corpus"
    shutil.copytree(REPO / "data" / "clough", folder)
    for i in range(20):  # 21 copies of one text: 210 pairs of Jaccard 1, 20 x 2 more with its near duplicates
        shutil.copy(folder / "orig_taska.txt", folder / f"zz_copy{i:02d}.txt")
    result = check_against_truth(tmp_path, str(folder), 0.5, 1000, "--bands", "4", "--rows", "32")
    assert (result["true_pairs"], result["copy_pairs"], result["copy_pairs_found"]) == (16 + 210 + 40, 210, 210)
    assert result["found_pairs"] == 210 and result["recall"] > 0.78
    assert (result["distinct_recall"], result["distinct_recall_low"]) == (0.0, 0.0)
    db = tmp_path / "audited.duckdb"
    options = ["-t", "0.5", "--bands", "4", "--rows", "32", "--audit", "1000", "--db", str(db)]
    done = runner.invoke(app, ["run", str(folder), *options])
    assert done.exit_code == 0, done.output
    reported = runner.invoke(app, ["report", str(db), "-o", str(page := tmp_path / "report.html")])
    assert reported.exit_code == 0, reported.output
    assert "Between different texts (pairs of exact copies left out, 210 of them): 0.0000, 95 % 0.0000–0.0642." in (
        page.read_text()
    )
    assert "  between different texts: recall 0.0000 (95 % 0.0000-0.0642): 0 of 56 pairs found; " in done.stderr
    assert "the other 210 join exact copies (210 found)" in done.stderr


def test_an_audit_of_no_index_fails_in_one_line(tmp_path):
    done = runner.invoke(app, ["audit", str(tmp_path / "none.duckdb")])
    assert done.exit_code == 2 and "no database at" in done.stderr


def test_wilson_interval_matches_published_values():
    low, high = wilson(8, 10)  # Wilson 1927; Newcombe 1998, Table I: 0.490-0.943
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def variants_corpus(path, pairs: int = 300, seed: int = 5) -> None:
    """`pairs` documents of 100 distinct words, each with a variant of 5-12 words replaced: word
    1-shingles give a Jaccard of (100 - m) / (100 + m), 0.79-0.90, where 8 bands of 16 rows find a
    pair with probability 0.2-0.8."""
    import random

    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(20_000)]
    lines = []
    for _ in range(pairs):
        words = rng.sample(vocabulary, 112)
        base, spare = words[:100], words[100:]
        m = rng.randint(5, 12)
        variant = base[m:] + spare[:m]
        lines += [" ".join(base), " ".join(variant)]
    path.write_text("\n".join(lines) + "\n")


def test_the_summary_estimate_of_missed_pairs_agrees_with_the_audit_where_lsh_misses_many(tmp_path):
    """Each pair found at Jaccard J stands for 1 / P(J) pairs (Horvitz-Thompson): on 300 pairs of
    which LSH finds about half, the estimate is within three of its standard errors of the misses
    the audit measures over every document."""
    import math

    import duckdb

    corpus = tmp_path / "variants.txt"
    variants_corpus(corpus)
    db = tmp_path / "index.duckdb"
    options = ["--lines", "--shingle-type", "word", "-k", "1", "--threshold", "0.75", "--bands", "8", "--rows", "16"]
    done = runner.invoke(
        app, ["run", str(corpus), *options, "--db", str(db), "--audit", "600", "-o", str(tmp_path / "p.csv")]
    )
    assert done.exit_code == 0, done.output
    line = next(line for line in done.stderr.splitlines() if line.startswith("expected missed"))
    assert "audit: recall 0." in done.stderr
    con = duckdb.connect(str(db), read_only=True)
    counts = json.loads(con.sql("select counts from runs").fetchall()[-1][0])
    p = [1 - (1 - j**16) ** 8 for (j,) in con.sql("select jaccard from pairs").fetchall()]
    con.close()
    measured = counts["audit"]["true_pairs"] - counts["audit"]["found_pairs"]
    assert counts["audit"]["true_pairs"] == 300 and 60 < measured < 240  # LSH misses many
    error = math.sqrt(sum((1 - q) / q**2 for q in p))  # the estimate's standard error
    assert abs(counts["expected_missed"] - measured) <= 3 * error, (counts, measured, error)
    assert f"~{counts['expected_missed']:,.0f} of" in line


def test_run_audit_records_the_recall_and_the_api_returns_it(tmp_path):
    import dedup

    db = tmp_path / "index.duckdb"
    done = runner.invoke(
        app,
        [
            "run",
            str(REPO / "data" / "clough"),
            "--threshold",
            "0.5",
            "--db",
            str(db),
            "--audit",
            "100",
            "-o",
            str(tmp_path / "p.csv"),
        ],
    )
    assert done.exit_code == 0, done.output
    assert "audit: recall 1.0000 (95 % 0.8064-1.0000, Wilson): 16 of 16 pairs >= 0.5 of 100 sampled" in done.stderr
    measured = dedup.Index(db).audit(sample=100)
    assert (measured.recall, measured.true_pairs, measured.missed) == (1.0, 16, [])
    assert measured.as_dict()["sample"][:2] == ["g0pA_taska.txt", "g0pA_taskb.txt"]
    done = runner.invoke(app, ["run", str(REPO / "data" / "clough"), "--audit", "0", "-q"])
    assert done.exit_code == 2
    report = tmp_path / "report.html"
    done = runner.invoke(app, ["report", str(db), "--output", str(report)])
    assert done.exit_code == 0, done.output
    assert "16 of the 16 pairs with Jaccard &ge; 0.5 of 100 sampled documents (seed 1) were found" in report.read_text()


def test_an_exact_query_finds_what_an_exact_run_finds_below_the_index_threshold(tmp_path):
    """dedup query --exact compares every document sharing a shingle: at --min-jaccard 0.1 it lists
    exactly the pairs of the document in a --method exact run at 0.1, with the same Jaccard; the
    band probe lists fewer and says so."""
    clough = str(REPO / "data" / "clough")
    truth_file, db = tmp_path / "truth.csv", tmp_path / "index.duckdb"
    done = runner.invoke(app, ["run", clough, "--threshold", "0.1", "--method", "exact", "-q", "-o", str(truth_file)])
    assert done.exit_code == 0, done.output
    done = runner.invoke(
        app, ["run", clough, "--threshold", "0.5", "--db", str(db), "-q", "-o", str(tmp_path / "p.csv")]
    )
    assert done.exit_code == 0, done.output
    wanted = "g0pE_taska.txt"
    truth = {(b if a == wanted else a): j for (a, b), j in pairs_of(truth_file).items() if wanted in (a, b)}
    query = ["query", str(db), "--id", wanted, "--min-jaccard", "0.1", "--format", "csv"]
    done = runner.invoke(app, [*query, "--exact"])
    assert done.exit_code == 0, done.output
    rows = list(csv.DictReader(done.stdout.splitlines()))
    assert {r["id"]: float(r["jaccard"]) for r in rows} == truth and len(truth) == 9
    assert "note:" not in done.stderr
    done = runner.invoke(app, query)
    assert done.exit_code == 0, done.output
    assert len(list(csv.DictReader(done.stdout.splitlines()))) < len(truth)
    assert "note: the band probe finds a document at Jaccard 0.1 with probability 0.0412" in done.stderr
    for refused in (["--min-bands", "0"], ["--exact", "--min-bands", "2"]):
        done = runner.invoke(app, [*query, *refused])
        assert done.exit_code == 2 and "--exact" in done.stderr
