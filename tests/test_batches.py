"""A large corpus runs the per-document stages in doc_id batches and verifies its candidates in
batches by doc_id_a: the tables equal those of one batch."""

from __future__ import annotations

import itertools
import random

import duckdb
import pytest
from corpora import planted_corpus, write_folder

import dedup
from dedup import runner
from dedup import stages as plan_stages

TABLES = ("documents", "shingles", "signatures", "band_hashes", "candidates", "verified", "pairs")


def run_into(db, folder, **options):
    dedup.run(folder, 0.8, shingle_size=5, db=db, keep_all_tables=True, **options)


def differing_rows(a, b, table: str) -> int:
    with duckdb.connect(str(a), read_only=True) as con:
        con.execute(f"attach '{b}' as other (read_only)")
        forward = con.execute(f"select count(*) from (from {table} except all from other.{table})").fetchall()[0][0]
        backward = con.execute(f"select count(*) from (from other.{table} except all from {table})").fetchall()[0][0]
        return forward + backward


@pytest.mark.parametrize("kind,documents,characters", [("char", 7, 10**9), ("char", 10**9, 2_000), ("word", 5, 3_000)])
def test_batches_give_the_tables_of_one_batch(tmp_path, monkeypatch, kind, documents, characters):
    docs = planted_corpus(n_base=15, variants=3, seed=5)
    write_folder(tmp_path / "c", docs)
    run_into(tmp_path / "one.duckdb", tmp_path / "c", shingle_type=kind)
    monkeypatch.setattr(plan_stages, "BATCH_DOCUMENTS", documents)
    monkeypatch.setattr(plan_stages, "BATCH_CHARACTERS", characters)
    batches = []
    original = runner._run_group

    def counting(engine, plan, number, ranges, progress):
        if plan.batched_on[number] == "documents":
            batches.append(len(ranges))
        return original(engine, plan, number, ranges, progress)

    monkeypatch.setattr(runner, "_run_group", counting)
    run_into(tmp_path / "many.duckdb", tmp_path / "c", shingle_type=kind)
    assert batches and batches[0] > 3
    for table in TABLES:
        assert differing_rows(tmp_path / "one.duckdb", tmp_path / "many.duckdb", table) == 0, table
    with duckdb.connect(str(tmp_path / "many.duckdb"), read_only=True) as con:
        stages = dict(con.execute("select stage, rows from stages").fetchall())
        assert stages["shingles"] == con.execute("select count(*) from shingles").fetchall()[0][0]
        assert stages["signatures"] == con.execute("select count(*) from signatures").fetchall()[0][0] > 40


@pytest.mark.parametrize("method", ["lsh", "exact", "signature"])
def test_candidates_verified_in_batches_give_the_tables_of_one_batch(tmp_path, monkeypatch, method):
    write_folder(tmp_path / "c", planted_corpus(n_base=15, variants=3, seed=7))
    run_into(tmp_path / "one.duckdb", tmp_path / "c", method=method)
    monkeypatch.setattr(plan_stages, "BATCH_SHINGLES", 300)
    batches = {}
    original = runner._run_group

    def counting(engine, plan, number, ranges, progress):
        batches[plan.batched_on[number]] = len(ranges)
        return original(engine, plan, number, ranges, progress)

    monkeypatch.setattr(runner, "_run_group", counting)
    run_into(tmp_path / "many.duckdb", tmp_path / "c", method=method)
    assert batches["candidates"] > 3 and batches["documents"] == 1
    for table in TABLES:
        assert differing_rows(tmp_path / "one.duckdb", tmp_path / "many.duckdb", table) == 0, table
    with duckdb.connect(str(tmp_path / "many.duckdb"), read_only=True) as con:
        verified = con.execute("select count(*) from verified").fetchall()[0][0]
        assert verified == con.execute("select count(*) from candidates").fetchall()[0][0] > 10
        assert con.execute("select count(*) from pairs").fetchall()[0][0] > 5
        assert con.execute(
            "select count(*) from information_schema.tables where table_schema = 'staging'"
        ).fetchall() == [(0,)]


def test_a_batched_run_resumes(tmp_path, monkeypatch):
    write_folder(tmp_path / "c", planted_corpus(n_base=10, variants=2, seed=6))
    monkeypatch.setattr(plan_stages, "BATCH_DOCUMENTS", 4)
    run_into(tmp_path / "run.duckdb", tmp_path / "c")
    ran = []
    monkeypatch.setattr(runner, "_run_group", lambda *args: ran.append(args) or {})
    run_into(tmp_path / "run.duckdb", tmp_path / "c")
    assert ran == []  # every stage was reused


def test_a_run_stopped_between_batches_marks_none_of_the_group_finished_and_resumes(tmp_path, monkeypatch):
    """Batches commit one by one: after a stop in the third, the batches before it are in the
    tables, but neither the group's stages nor any later one is marked finished; the next run
    computes the group again and gives the tables of an uninterrupted run."""
    write_folder(tmp_path / "c", planted_corpus(n_base=10, variants=2, seed=6))
    run_into(tmp_path / "one.duckdb", tmp_path / "c")
    run_into(tmp_path / "run.duckdb", tmp_path / "c")  # a finished run first: its later stages are marked
    monkeypatch.setattr(plan_stages, "BATCH_DOCUMENTS", 4)
    calls = []
    original = runner.run_steps

    def stopping(*args, **kwargs):
        if kwargs.get("temporary"):  # a batch's stages
            calls.append(args)
            if len(calls) == 3:
                raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(runner, "run_steps", stopping)
    with pytest.raises(dedup.errors.Interrupted):
        run_into(tmp_path / "run.duckdb", tmp_path / "c", num_perm=64)  # other options: every stage reruns
    with duckdb.connect(str(tmp_path / "run.duckdb"), read_only=True) as con:
        assert [s for (s,) in con.execute("select stage from stages order by all").fetchall()] == ["documents"]
        assert 0 < con.execute("select count(*) from signatures").fetchall()[0][0] < 40  # two batches of 4
    monkeypatch.setattr(runner, "run_steps", original)
    run_into(tmp_path / "run.duckdb", tmp_path / "c")
    for table in TABLES:
        assert differing_rows(tmp_path / "one.duckdb", tmp_path / "run.duckdb", table) == 0, table


@pytest.mark.slow
def test_batches_do_not_leave_their_tables_in_the_database_file(tmp_path, monkeypatch):
    """A batch's tables are temporary and each batch commits and checkpoints, so the file holds the
    appended rows and little else: in one transaction, 8 batches made in a schema of the file left
    60 free blocks (48 MiB file instead of 32), and a 10M document corpus wrote its shingles twice
    (40 GB before it stopped)."""
    rng = random.Random(3)
    words = ["".join(rng.choice("abcdefghij") for _ in range(5)) for _ in range(3000)]
    (tmp_path / "docs.txt").write_text("".join(" ".join(rng.choices(words, k=40)) + "\n" for _ in range(8000)))
    run_into(tmp_path / "one.duckdb", tmp_path / "docs.txt", lines=True)
    monkeypatch.setattr(plan_stages, "BATCH_DOCUMENTS", 1000)  # 8 batches of ~200k shingle rows
    run_into(tmp_path / "many.duckdb", tmp_path / "docs.txt", lines=True)
    blocks = {}
    for name in ("one", "many"):
        with duckdb.connect(str(tmp_path / f"{name}.duckdb"), read_only=True) as con:
            blocks[name] = con.execute("select total_blocks, free_blocks from pragma_database_size()").fetchall()[0]
    assert blocks["many"][0] <= blocks["one"][0] * 1.2, blocks
    assert blocks["many"][1] <= 16, blocks
    assert differing_rows(tmp_path / "one.duckdb", tmp_path / "many.duckdb", "signatures") == 0


@pytest.mark.parametrize("seed", range(6))
def test_document_ranges_cover_every_document_within_both_bounds_and_waste_no_batch(seed):
    rng = random.Random(seed)
    lengths = [rng.choice([0, 1, 5, 40, 200, 900]) for _ in range(rng.randrange(1, 400))]
    characters, documents = rng.choice([(300, 7), (2_000, 50), (10**6, 9), (50, 10**6)])
    statement = plan_stages.query(
        "batch_ranges_documents", {"characters": characters, "documents": documents}, "duckdb"
    )
    with duckdb.connect() as con:
        con.execute("create table documents (doc_id bigint, norm varchar)")
        con.executemany("insert into documents values (?, ?)", [(i + 1, "x" * n) for i, n in enumerate(lengths)])
        ranges = con.execute(statement.sql, dict(statement.parameters)).fetchall()
    assert ranges[0][0] == 1 and ranges[-1][1] == len(lengths)
    assert all(last + 1 == next_first for (_, last), (next_first, _) in itertools.pairwise(ranges))
    for first, last in ranges:
        inside = lengths[first - 1 : last]
        # a range holds at most one document past either bound: the one whose cost crosses it
        assert len(inside) <= documents + 1
        assert sum(inside) - max(inside) <= characters
    # a range ends only where the running cost passes a whole bound, so no more ranges than that
    cost = sum(max(n / characters, 1 / documents) for n in lengths)
    assert len(ranges) <= int(cost) + 1
