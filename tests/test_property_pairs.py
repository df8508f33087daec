"""Property: with one row per band, the pairs of any generated corpus equal a brute-force computation.

With r = 1 and b = 64 bands, a pair of Jaccard J is missed with probability (1 - J)^64, below
1e-9 for J >= 0.3: detection is as good as guaranteed, so the pipeline's pairs must be exactly
the brute-force pairs, with the same Jaccard to the last bit.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import reference
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from test_oracle import unicode_text

import dedup


@st.composite
def corpora(draw) -> list[str]:
    """Random Unicode documents plus edited copies of some of them, so that pairs exist."""
    bases = draw(st.lists(unicode_text, min_size=1, max_size=5))
    docs = list(bases)
    for base in bases:
        for _ in range(draw(st.integers(0, 2))):
            cut = draw(st.integers(0, len(base)))
            docs.append(base[:cut] + draw(st.text(max_size=3)) + base[cut:])
    return draw(st.permutations(docs))


@pytest.mark.slow  # many hypothesis examples, each a full pipeline: the second phase
@hypothesis_settings(max_examples=40)
@given(
    docs=corpora(),
    k=st.integers(1, 5),
    kind=st.sampled_from(["char", "word"]),
    threshold=st.sampled_from([0.3, 0.5, 0.8, 1.0]),
)
def test_pairs_equal_brute_force_when_detection_is_guaranteed(tmp_path_factory, docs, k, kind, threshold):
    path = tmp_path_factory.mktemp("prop") / "docs.parquet"
    pq.write_table(pa.table({"id": list(range(1, len(docs) + 1)), "text": docs}), path)
    pairs = dedup.run(path, threshold, shingle_type=kind, shingle_size=k, num_perm=64, bands=64, rows=1)
    got = {(row["id_a"], row["id_b"]): row["jaccard"] for row in pairs.to_pylist()}
    expected = reference.brute_force_pairs(dict(enumerate(docs, start=1)), k, threshold, kind)
    assert got == expected
