"""--method exact and signature against the brute-force reference; exact is the ground truth."""

from __future__ import annotations

import math

import duckdb
import pytest
import reference
from corpora import planted_corpus, write_folder
from helpers import load_documents, rows, run_stages, sketch_for
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import dedup
from dedup.cli import app
from dedup.errors import UsageError

# Few letters and short texts: many pairs land near any threshold, and shared rare shingles are common.
small_texts = st.lists(st.text(alphabet="abc ", max_size=14), min_size=2, max_size=12)


def sql_pairs(texts: list[str], method: str, kind: str, k: int, threshold: float) -> dict[tuple, float]:
    options = sketch_for(shingle_type=kind, shingle_size=k, threshold=threshold, method=method, num_perm=16)
    docs = {f"d{i:02d}": text for i, text in enumerate(texts)}
    with duckdb.connect() as con:
        load_documents(con, docs, options)
        run_stages(con, options, until="pairs", start="shingles")
        return {(a, b): j for a, b, j in rows(con, "select id_a, id_b, jaccard from pairs")}


def test_exact_method_drops_a_prefix_match_that_cannot_reach_the_threshold():
    """a and b share one word, inside both prefixes but late in them (positions 2 and 3 of 10,
    after words rarer than it): prefix filtering alone makes them a candidate, but at most
    1 + min(10 - 2, 10 - 3) = 8 words can be shared, below the 0.8 / 1.8 * 20 = 8.9 that
    J >= 0.8 needs, so the positional filter drops the pair before verification."""
    x, y = [f"x{i}" for i in range(8)], [f"y{i}" for i in range(7)]
    words = {"a": ["a1", "s", *x], "b": ["b1", "b2", "s", *y], "c": x, "d": x, "e": y, "f": y}
    options = sketch_for(shingle_type="word", shingle_size=1, threshold=0.8, method="exact")
    with duckdb.connect() as con:
        load_documents(con, {name: " ".join(w) for name, w in words.items()}, options)
        run_stages(con, options, until="candidates", start="shingles")
        candidates = rows(
            con,
            "select a.id, b.id from candidates join documents a on a.doc_id = doc_id_a "
            "join documents b on b.doc_id = doc_id_b order by all",
        )
    # a contains c and d (J = 8/10 = 0.8: real pairs); b (10 words) and e, f (7) fail the size filter
    assert candidates == [("a", "c"), ("a", "d"), ("c", "d"), ("e", "f")]


@pytest.mark.slow  # many hypothesis examples, each a full pipeline: the second phase
@settings(max_examples=150, deadline=None)
@given(
    texts=small_texts,
    kind=st.sampled_from(["char", "word"]),
    k=st.integers(1, 4),
    threshold=st.sampled_from([0.01, 0.2, 1 / 3, 0.5, 0.6, 2 / 3, 0.7, 0.75, 0.8, 0.9, 0.95, 1.0]),
)
def test_exact_method_equals_brute_force(texts, kind, k, threshold):
    docs = {f"d{i:02d}": text for i, text in enumerate(texts)}
    expected = reference.brute_force_pairs(docs, k, threshold, kind)
    got = sql_pairs(texts, "exact", kind, k, threshold)
    assert set(got) == set(expected)
    for pair, jaccard in got.items():
        assert jaccard == pytest.approx(expected[pair], abs=1e-12)


def test_exact_method_finds_every_planted_pair(tmp_path):
    docs = planted_corpus(n_base=30, variants=4, seed=11)
    write_folder(tmp_path / "c", docs)
    expected = reference.brute_force_pairs({f"{n}.txt": t for n, t in docs.items()}, 5, 0.7)
    got = dedup.run(tmp_path / "c", 0.7, shingle_size=5, method="exact").to_pylist()
    assert len(expected) > 20
    assert {(r["id_a"], r["id_b"]) for r in got} == set(expected)


def test_signature_method_keeps_only_true_pairs_and_most_of_them(tmp_path):
    docs = planted_corpus(n_base=30, variants=4, seed=12)
    write_folder(tmp_path / "c", docs)
    expected = reference.brute_force_pairs({f"{n}.txt": t for n, t in docs.items()}, 5, 0.8)
    got = {
        (r["id_a"], r["id_b"]) for r in dedup.run(tmp_path / "c", 0.8, shingle_size=5, method="signature").to_pylist()
    }
    assert got <= set(expected)
    # A pair of Jaccard j is kept when at least t * 128 of its 128 MinHash values agree, each with
    # probability j: expect sum P(Binomial(128, j) >= t * 128) pairs; allow 4 standard deviations.
    need = math.ceil(0.8 * 128)
    kept = [sum(math.comb(128, i) * j**i * (1 - j) ** (128 - i) for i in range(need, 129)) for j in expected.values()]
    mean, sd = sum(kept), math.sqrt(sum(p * (1 - p) for p in kept))
    assert mean - 4 * sd <= len(got) <= mean + 4 * sd, (len(got), mean, sd)
    # a pair well above the threshold has an estimate above it too (s.d. ~0.03 at 128 permutations)
    well_above = {p for p, j in expected.items() if j >= 0.92}
    assert well_above and well_above <= got


def method_of(db) -> str:
    with duckdb.connect(str(db), read_only=True) as con:
        return rows(con, "select options->>'method' from runs")[0][0]


def test_method_is_recorded_and_validated(tmp_path, tiny_corpus):
    result = CliRunner().invoke(
        app, ["run", str(tiny_corpus), "--method", "exact", "-q", "--db", str(tmp_path / "r.db")]
    )
    assert result.exit_code == 0, result.output
    # (a helper, so that no connection object outlives the test in its frame, which pytest.raises keeps)
    assert method_of(tmp_path / "r.db") == "exact"
    bad = CliRunner().invoke(app, ["run", str(tiny_corpus), "--method", "fast"])
    assert bad.exit_code == 2
    with pytest.raises(UsageError, match="threshold above 0"):
        sketch_for(method="exact", threshold=0.0)
