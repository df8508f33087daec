"""dedup.run end to end against a brute-force exact computation; determinism; the database left behind."""

from __future__ import annotations

import json

import duckdb
import pytest
import reference
from corpora import planted_corpus, write_folder

import dedup
from dedup.banding import choose_banding, detection_probability
from dedup.hashing import SCHEME


def as_dict(pairs) -> dict[tuple, float]:
    rows = pairs.to_pylist()
    return {(r["id_a"], r["id_b"]): r["jaccard"] for r in rows}


def allowed_misses(similarities: list[float], threshold: float, tail: float = 1e-4) -> int:
    """The most pairs LSH may miss: more would happen with probability < tail under the S-curve.

    Each pair of similarity s is missed independently with probability 1 - P(s) (default banding);
    the count of misses is Poisson-binomial. A broken LSH stage misses far more.
    """
    banding = choose_banding(threshold, 128)
    distribution = [1.0]  # distribution[m] = P(m misses so far)
    for s in similarities:
        q = 1 - detection_probability(s, banding.bands, banding.rows)
        distribution = [
            (distribution[m] if m < len(distribution) else 0) * (1 - q) + (distribution[m - 1] * q if m else 0)
            for m in range(len(distribution) + 1)
        ]
    above = 1.0
    for m, p in enumerate(distribution):
        above -= p
        if above < tail:
            return m
    return len(similarities)


@pytest.mark.parametrize("seed,kind,k", [(1, "char", 5), (2, "char", 9), (3, "word", 2)])
def test_pairs_match_brute_force(tmp_path, seed, kind, k):
    docs = planted_corpus(n_base=40, variants=4, seed=seed)
    write_folder(tmp_path / "c", docs)
    got = as_dict(dedup.run(tmp_path / "c", 0.8, shingle_type=kind, shingle_size=k))
    expected = reference.brute_force_pairs({f"{n}.txt": t for n, t in docs.items()}, k, 0.8, kind)
    assert len(expected) > 20
    assert set(got) <= set(expected)  # nothing below the threshold
    missed = [expected[pair] for pair in set(expected) - set(got)]
    assert len(missed) <= allowed_misses(list(expected.values()), 0.8), sorted(missed)
    for pair, jaccard in got.items():
        assert jaccard == pytest.approx(expected[pair], abs=1e-9)


def test_exact_and_short_duplicates_are_paired(tiny_corpus):
    got = as_dict(dedup.run(tiny_corpus, 0.8, shingle_size=9))
    assert got[("copy.txt", "original.txt")] == 1.0
    assert all("empty.txt" not in pair for pair in got)


def test_pairs_are_ordered_and_unique(tmp_path):
    docs = planted_corpus(n_base=10, variants=3, seed=5)
    write_folder(tmp_path / "c", docs)
    rows = dedup.run(tmp_path / "c", 0.7, shingle_size=5).to_pylist()
    keys = [(r["id_a"], r["id_b"]) for r in rows]
    assert all(a < b for a, b in keys)
    assert len(keys) == len(set(keys))
    assert keys and [(-r["jaccard"], r["id_a"], r["id_b"]) for r in rows] == sorted(
        (-r["jaccard"], r["id_a"], r["id_b"]) for r in rows
    )


def test_identical_output_across_runs_and_threads(tmp_path):
    docs = planted_corpus(n_base=30, variants=3, seed=7)
    write_folder(tmp_path / "c", docs)
    results = [dedup.run(tmp_path / "c", 0.75, shingle_size=5, threads=t) for t in (1, 2, 2, 1)]
    assert all(r.equals(results[0]) for r in results)
    assert results[0].num_rows > 0


def test_database_keeps_every_stage_and_the_run(tmp_path, tiny_corpus):
    db = tmp_path / "run.duckdb"
    dedup.run(tiny_corpus, 0.8, shingle_size=5, db=db, keep_all_tables=True)
    con = duckdb.connect(str(db), read_only=True)
    tables = {name for (name,) in con.execute("select table_name from information_schema.tables").fetchall()}
    assert {
        "documents",
        "shingles",
        "signatures",
        "band_hashes",
        "candidates",
        "verified",
        "pairs",
        "runs",
        "skipped",
    } <= tables
    options, counts, seconds, scheme = con.execute(
        "select options, counts, stage_seconds, hash_scheme from runs"
    ).fetchone()
    assert json.loads(options)["shingle_size"] == 5
    assert json.loads(counts)["read"] == 6 and json.loads(counts)["empty"] == 1
    assert set(json.loads(seconds)) >= {"read", "shingles", "signatures", "pairs"}
    assert scheme == SCHEME
    con.close()


def test_same_seed_same_signatures_other_seed_differs(tmp_path, tiny_corpus):
    sigs = []
    for seed, name in ((1, "a"), (1, "b"), (2, "c")):
        db = tmp_path / f"{name}.duckdb"
        dedup.run(tiny_corpus, 0.8, shingle_size=5, seed=seed, db=db, keep_all_tables=True)
        con = duckdb.connect(str(db), read_only=True)
        sigs.append(con.execute("select * from signatures order by doc_id").fetchall())
        con.close()
    assert sigs[0] == sigs[1]
    assert sigs[0] != sigs[2]
