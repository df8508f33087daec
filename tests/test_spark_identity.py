"""Every stage table is identical on DuckDB and Spark (local mode), for every method and shingle type.

The Spark stages read the raw documents DuckDB read (written as Parquet, read by Spark), so the
comparison covers every SQL stage; tests/crossengine.py lists what is compared.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import REPO, SHARED
from crossengine import compare
from hypothesis import Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from traps import traps_corpus

from dedup.engines.spark.engine import SparkEngine
from dedup.settings import Settings

pytestmark = pytest.mark.slow


def check(spark, tmp_path: Path, inputs: tuple[Path, ...], **options) -> dict[str, int]:
    settings = Settings.of(inputs=inputs, db=tmp_path / "run.duckdb", **options)
    return compare(settings, SparkEngine(spark, tmp_path / "work"))


def write_table(path: Path, docs: dict[str, str]) -> Path:
    pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), path)
    return path


@pytest.mark.parametrize(
    "options",
    [
        {"threshold": 0.5},
        {"threshold": 0.5, "shingle_type": "word", "shingle_size": 3, "method": "exact"},
        {"threshold": 0.3, "shingle_size": 5, "method": "signature", "num_perm": 64},
        {"threshold": 0.5, "shingle_type": "word", "shingle_size": 3, "max_shingle_df": 4},
    ],
    ids=["lsh-char9", "exact-word3", "signature-char5", "capped-word3"],
)
def test_bundled_clough(spark, tmp_path, options):
    counts = check(spark, tmp_path, (REPO / "data" / "clough",), **options)
    assert counts["documents"] == 100 and counts["pairs"] > 0


@pytest.mark.parametrize(
    "corpus, options",
    [
        (
            "clough-stevenson-plagiarism/documents.parquet",
            {"threshold": 0.6, "shingle_type": "word", "shingle_size": 5},
        ),
        ("textreuse/ats", {"threshold": 0.2, "shingle_size": 5, "method": "exact"}),
    ],
    ids=["clough-parquet-lsh-word5", "textreuse-exact-char5"],
)
def test_shared_corpora(spark, tmp_path, corpus, options):
    counts = check(spark, tmp_path, (SHARED / corpus,), **options)
    assert counts["documents"] > 0 and counts["pairs"] > 0


@pytest.mark.parametrize(
    "options",
    [
        {"threshold": 0.5, "shingle_size": 3},
        {"threshold": 0.5, "shingle_type": "word", "shingle_size": 2, "method": "exact"},
        {"threshold": 0.4, "shingle_size": 4, "method": "signature"},
        {"threshold": 0.5, "shingle_size": 3, "method": "exact", "max_shingle_df": "0.2"},
    ],
    ids=["lsh-char3", "exact-word2", "signature-char4", "capped-exact-char3"],
)
def test_traps_corpus(spark, tmp_path, options):
    counts = check(spark, tmp_path, (write_table(tmp_path / "traps.parquet", traps_corpus()),), **options)
    assert counts["pairs"] >= 66  # the 12 identical texts alone make 66 pairs


TRAP_CHARACTERS = "aAbB İıΣσς\u00a0\u0085\u2028\u2029\r\n\t_1١😀𝒳\u0301\U0001e030\u2c2f\x01"
texts = st.text(alphabet=st.sampled_from(TRAP_CHARACTERS) | st.characters(codec="utf-8"), max_size=300)


@hypothesis_settings(max_examples=3, phases=[Phase.explicit, Phase.generate], deadline=None)
@given(
    corpus=st.lists(texts, min_size=2, max_size=40),
    shingle_type=st.sampled_from(["char", "word"]),
    k=st.integers(1, 6),
)
def test_generated_texts(spark, tmp_path_factory, corpus, shingle_type, k):
    tmp_path = tmp_path_factory.mktemp("generated")
    # each text also appears with one edit, so that there are pairs to find
    docs = {f"t{i:03d}": text for i, text in enumerate(corpus)}
    docs.update({f"t{i:03d}e": text[:-1] + "x" for i, text in enumerate(corpus) if text})
    inputs = (write_table(tmp_path / "generated.parquet", docs),)
    try:
        check(spark, tmp_path, inputs, threshold=0.3, shingle_type=shingle_type, shingle_size=k)
    except AssertionError:
        print("corpus:", json.dumps(docs, ensure_ascii=True))
        raise


def test_word_token_class_is_duckdbs_on_every_code_point(spark, tmp_path):
    """sql/spark/fragments/tokens_word.sql's token class matches RE2's [\\p{L}\\p{N}_] exactly."""
    points = [i for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF]
    table = pa.table({"i": points, "s": [chr(i) for i in points]})
    pq.write_table(table, tmp_path / "points.parquet")
    con = duckdb.connect()
    con.register("points", table)
    duck = {i for (i,) in con.sql(r"select i from points where regexp_full_match(s, '[\p{L}\p{N}_]')").fetchall()}
    fragment = (REPO / "sql" / "spark" / "fragments" / "tokens_word.sql").read_text(encoding="utf-8")
    token = fragment.split("r'", 1)[1].split("'", 1)[0]
    assert token.endswith("]+")
    spark.read.parquet(str(tmp_path / "points.parquet")).createOrReplaceTempView("points")
    java = {
        row.i
        for row in spark.sql(
            "select i from points where regexp_like(s, :pattern)", args={"pattern": "^" + token[:-1] + "$"}
        ).collect()
    }
    assert len(duck) > 130_000
    assert java == duck


def test_hot_buckets_spread_over_tasks_give_the_same_candidates(spark, tmp_path, monkeypatch):
    """sql/spark/05_candidates.sql splits buckets above HOT_BUCKET_ROWS; lowered here so the traps' 12
    identical texts (one bucket per band) and every bucket of 3+ documents take the spread path."""
    import dedup.stages

    monkeypatch.setattr(dedup.bindings, "HOT_BUCKET_ROWS", 2)
    docs = traps_corpus()
    docs.update({f"hot-extra-{i:02d}": "identical boilerplate text repeated many times" for i in range(30)})
    counts = check(spark, tmp_path, (write_table(tmp_path / "hot.parquet", docs),), threshold=0.5, shingle_size=3)
    assert counts["pairs"] >= 42 * 41 // 2
