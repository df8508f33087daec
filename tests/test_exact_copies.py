"""Exact copies first (issue 23): candidates and verification work on one representative per group
of documents with the same normalized text, and expand to the members. The tables are those of the
join on every document, row for row, on both engines; the pairs those of a brute-force oracle."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_force_pairs

from dedup.pipeline import execute
from dedup.settings import Settings

# The stage statements as they were before copies were grouped: the join on every document.
EVERY_CANDIDATE = """
select a.doc_id as doc_id_a, b.doc_id as doc_id_b, count(*) as shared_bands
from band_hashes as a
join band_hashes as b on a.band = b.band and a.bucket = b.bucket and a.doc_id < b.doc_id
group by a.doc_id, b.doc_id
"""
EVERY_VERIFIED = """
with shared as (
    select c.doc_id_a, c.doc_id_b, count(*) as intersection
    from candidates as c
    join shingles as sa on sa.doc_id = c.doc_id_a
    join shingles as sb on (sb.doc_id, sb.fingerprint) = (c.doc_id_b, sa.fingerprint)
    group by c.doc_id_a, c.doc_id_b
)
select c.doc_id_a, c.doc_id_b, c.shared_bands, coalesce(s.intersection, 0) as intersection,
    na.n_shingles + nb.n_shingles - coalesce(s.intersection, 0) as union_size,
    coalesce(s.intersection, 0) / (na.n_shingles + nb.n_shingles - coalesce(s.intersection, 0)) as jaccard
from candidates as c
join signatures as na on na.doc_id = c.doc_id_a
join signatures as nb on nb.doc_id = c.doc_id_b
left join shared as s on s.doc_id_a = c.doc_id_a and s.doc_id_b = c.doc_id_b
"""


def copies_corpus(seed: int = 3) -> dict[str, str]:
    """Groups of identical texts (and texts equal once normalized: case, runs of whitespace), near
    copies of them, empty and whitespace-only texts, and unrelated ones."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 6))) for _ in range(400)]
    docs: dict[str, str] = {}
    for group, size in enumerate([40, 12, 5, 2, 2, 1]):
        text = " ".join(rng.choice(words) for _ in range(20))
        for member in range(size):
            variant = text.upper() if member % 3 == 1 else text.replace(" ", "  \t") if member % 3 == 2 else text
            docs[f"g{group}-{member:02d}"] = variant
        near = text.split()
        near[rng.randrange(len(near))] = "changed"
        docs[f"g{group}-near"] = " ".join(near)
    for number in range(4):
        docs[f"blank-{number}"] = " " * number
    for number in range(30):
        docs[f"other-{number:02d}"] = " ".join(rng.choice(words) for _ in range(20))
    return docs


def run_tables(tmp_path: Path, docs: dict[str, str], **options) -> duckdb.DuckDBPyConnection:
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), path)
    settings = Settings.of(inputs=(path,), db=tmp_path / "run.duckdb", keep_all_tables=True, **options)
    execute(settings)
    return duckdb.connect(str(settings.engine_options.db), read_only=True)


def rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    return sorted(con.execute(sql).fetchall())


@pytest.mark.parametrize(
    "options", [{"threshold": 0.5, "shingle_size": 3}, {"shingle_type": "word", "shingle_size": 2}]
)
def test_tables_equal_the_join_on_every_document(tmp_path: Path, options) -> None:
    con = run_tables(tmp_path, copies_corpus(), **options)
    try:
        candidates = rows(con, "select * from candidates")
        assert candidates == rows(con, EVERY_CANDIDATE)
        assert len(candidates) > 40 * 39 // 2  # the large group's pairs are there
        assert rows(con, "select * from verified") == rows(con, EVERY_VERIFIED)
    finally:
        con.close()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["ab ab ab", "Ab  ab ab", "ab ab abc", "xyz xy", "", " "]), st.integers(1, 4)),
        min_size=1,
        max_size=6,
    )
)
def test_pairs_equal_the_oracle_for_any_mix_of_copies(tmp_path_factory, groups) -> None:
    docs = {f"d{n:02d}": text for n, (text, copies) in enumerate(groups) for _ in range(copies)}
    docs = {f"{key}-{n}": text for n, (key, text) in enumerate(docs.items())}
    tmp_path = tmp_path_factory.mktemp("copies")
    con = run_tables(tmp_path, docs, threshold=0.3, shingle_size=2, method="signature")
    try:
        found = {(a, b): j for a, b, j in con.execute("select id_a, id_b, jaccard from pairs").fetchall()}
    finally:
        con.close()
    assert found.keys() <= brute_force_pairs(docs, 2, 0.3).keys()
    assert all(found[key] == value for key, value in brute_force_pairs(docs, 2, 0.3).items() if key in found)
    con = run_tables(tmp_path_factory.mktemp("lsh"), docs, threshold=0.3, shingle_size=2)
    try:
        lsh = {(a, b): j for a, b, j in con.execute("select id_a, id_b, jaccard from pairs").fetchall()}
    finally:
        con.close()
    copies = {key for key, value in brute_force_pairs(docs, 2, 0.3).items() if value == 1.0}
    assert copies <= lsh.keys()  # every pair of copies is found, at Jaccard 1
    assert all(lsh[key] == value for key, value in brute_force_pairs(docs, 2, 0.3).items() if key in lsh)


@pytest.mark.slow
def test_spark_gives_the_same_tables_on_copies(spark, tmp_path: Path) -> None:
    from crossengine import compare

    from dedup.engines.spark.engine import SparkEngine

    docs = copies_corpus()
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), path)
    settings = Settings.of(inputs=(path,), db=tmp_path / "run.duckdb", threshold=0.5, shingle_size=3)
    counts = compare(settings, SparkEngine(spark, tmp_path / "work"))
    assert counts["candidates"] > 40 * 39 // 2 and counts["pairs"] > 0


def test_pairs_between_groups_leave_out_exactly_the_pairs_of_copies(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dedup.cli import app

    docs = copies_corpus()
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), path)
    runner = CliRunner()
    every = runner.invoke(app, ["run", str(path), "-k", "3", "-t", "0.5", "--format", "csv"])
    between = runner.invoke(
        app, ["run", str(path), "-k", "3", "-t", "0.5", "--format", "csv", "--pairs", "between-groups"]
    )
    kept = tmp_path / "kept.csv"
    none = runner.invoke(
        app, ["run", str(path), "-k", "3", "-t", "0.5", "--pairs", "none", "--export", f"survivors={kept}"]
    )
    assert every.exit_code == between.exit_code == none.exit_code == 0, (every.output, between.output)
    assert none.stdout == "" and kept.exists()
    group = {key: key.split("-")[0] if key.split("-")[1] != "near" else key for key in docs}
    rows = every.stdout.splitlines()[1:]
    copies = [row for row in rows if group[row.split(",")[0]] == group[row.split(",")[1]]]
    assert copies and all(",1.0," in row for row in copies)
    assert between.stdout.splitlines()[1:] == [row for row in rows if row not in copies]
    assert "exact copies: 61 documents in 5 groups of the same normalized text" in every.stderr
    out = tmp_path / "between.csv"  # the summary counts the pairs written, not those of the pairs table
    written = runner.invoke(
        app, ["run", str(path), "-k", "3", "-t", "0.5", "--pairs", "between-groups", "-o", str(out)]
    )
    listed = len(out.read_text().splitlines()) - 1
    assert 0 < listed < len(rows) and f"wrote {listed:,} pairs to {out}" in written.stderr


@pytest.mark.slow
@pytest.mark.parametrize("listed", ["all", "between-groups"])
def test_spark_lists_the_same_pairs_and_counts_the_same_copies(spark, tmp_path: Path, listed: str) -> None:
    from typer.testing import CliRunner

    from dedup.cli import app

    docs = copies_corpus()
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), path)
    outputs = []
    for engine in ("duckdb", "spark"):
        out = tmp_path / f"{engine}.csv"
        extra = ["--engine", "spark", "--work-dir", str(tmp_path / "work")] if engine == "spark" else []
        result = CliRunner().invoke(
            app, ["run", str(path), "-k", "3", "-t", "0.5", "--pairs", listed, "-o", str(out), *extra]
        )
        assert result.exit_code == 0, result.output
        assert "exact copies: 61 documents in 5 groups" in result.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
