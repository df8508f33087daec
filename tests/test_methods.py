"""--method exact and signature against the brute-force reference; exact is the ground truth."""

from __future__ import annotations

import duckdb
import pytest
import reference
from corpora import planted_corpus, write_folder
from helpers import load_documents, rows, run_stages, settings_for
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import dedup
from dedup.cli import app
from dedup.errors import UsageError

# Few letters and short texts: many pairs land near any threshold, and shared rare shingles are common.
small_texts = st.lists(st.text(alphabet="abc ", max_size=14), min_size=2, max_size=12)


def sql_pairs(texts: list[str], method: str, kind: str, k: int, threshold: float) -> dict[tuple, float]:
    options = settings_for(shingle_type=kind, shingle_size=k, threshold=threshold, method=method, num_perm=16)
    docs = {f"d{i:02d}": text for i, text in enumerate(texts)}
    with duckdb.connect() as con:
        load_documents(con, docs, options)
        run_stages(con, options, until="pairs", start="shingles")
        return {(a, b): j for a, b, j in rows(con, "select id_a, id_b, jaccard from pairs")}


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
    assert len(got) >= 0.5 * len(expected)
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
        settings_for(method="exact", threshold=0.0)
