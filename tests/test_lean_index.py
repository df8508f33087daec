"""The lean layout (dedup.stages.Layout): a database keeps no shingles and no MinHash values, and
every command answers on it what it answers on one that keeps every table (--keep-all-tables)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import REPO
from corpora import planted_corpus
from helpers import sketch_for
from indexing import keeps_every_table, make_index, result_tables, rows, write_jsonl
from typer.testing import CliRunner

from dedup import runner
from dedup import stages as plan_stages
from dedup.cli import app
from dedup.engines import open_engine
from dedup.html_report.data import gather

CLOUGH = REPO / "data" / "clough"


def cli(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout + result.stderr


def without_seconds(text: str) -> str:
    """A command's words, without the seconds it took and the file names it wrote."""
    text = re.sub(r'"seconds": [0-9.]+', '"seconds": 0', text)
    text = re.sub(r"[0-9]+\.[0-9]+ s\b", "N s", text)
    return re.sub(r"(lean|full)\.", "DB.", text)


def both_layouts(tmp_path, docs: dict[str, str], *options: object):
    lean = make_index(tmp_path, docs, "lean", *options)
    full = make_index(tmp_path, docs, "full", *options, "--keep-all-tables")
    return lean, full


def test_a_lean_index_keeps_no_shingles_nor_minhash_values(tmp_path):
    lean, full = both_layouts(tmp_path, planted_corpus(30, 2, seed=1), "--threshold", "0.5")
    assert not keeps_every_table(lean) and keeps_every_table(full)
    assert [r[0] for r in rows(lean, "select column_name from (describe signatures)")] == ["doc_id", "n_shingles"]
    assert len(rows(full, "select column_name from (describe signatures)")) == 2 + 128
    kept = {"documents", "band_hashes", "copies", "clusters", "runs", "stages"}
    kept |= {"candidates_between", "verified_between", "pairs_between"}
    assert kept <= {r[0] for r in rows(lean, "select table_name from duckdb_tables()")}
    views = "select view_name from duckdb_views() where not internal"
    assert {r[0] for r in rows(lean, views)} == {"candidates", "verified", "pairs"}
    assert result_tables(lean) == {**result_tables(full), "shingles": set(), "signatures": result_tables(lean)[
        "signatures"]}  # fmt: skip
    # the shingle counts kept are the shingles' rows, and the summary's count is theirs
    assert rows(lean, "select sum(n_shingles) from signatures") == rows(full, "select count(*) from shingles")
    assert rows(lean, "select rows from stages where stage = 'shingles'") == rows(
        full, "select rows from stages where stage = 'shingles'"
    )
    assert lean.stat().st_size < full.stat().st_size


@pytest.mark.parametrize("options", [("--threshold", "0.5"), ("--threshold", "0.5", "--method", "exact")])
def test_every_command_answers_the_same_on_both_layouts(tmp_path, options):
    docs = planted_corpus(25, 3, seed=4)
    docs.update({"copy1": docs["d0001"], "copy2": docs["d0001"], "empty": ""})  # exact copies, no shingles
    lean, full = both_layouts(tmp_path, docs, *options)
    said = {}
    for name, db in (("lean", lean), ("full", full)):
        said[name] = [
            cli("explain", db, "d0001", "d0001v0"),  # a pair
            cli("explain", db, "d0001", "copy1"),  # copies
            cli("explain", db, "d0001", "d0002"),  # never compared
            cli("explain", db, "d0003", "d0003v2"),
            cli("query", db, "--id", "d0001", "--min-jaccard", "0.2"),
            cli("query", db, "--id", "d0002", "--exact", "--min-jaccard", "0.05"),
            cli("query", db, "--text", docs["d0005v1"] + " and more words"),
            cli("audit", db, "--sample", "40", "--format", "json"),
            cli("clusters", db),
            cli("list", db),
            cli("export", db, "--what", "survivors", "-o", tmp_path / f"{name}.survivors.csv"),
            (tmp_path / f"{name}.survivors.csv").read_text(),
        ]
        engine = open_engine(db, read_only=True)
        try:
            said[name].append(repr(gather(engine, db, top=5, sample_pairs=50).pair_sample))
        finally:
            engine.close()
    assert [without_seconds(s) for s in said["lean"]] == [without_seconds(s) for s in said["full"]]


def test_add_and_remove_keep_a_lean_index_equal_to_a_full_one_and_to_a_rebuild(tmp_path):
    docs = planted_corpus(20, 2, seed=6)
    first = dict(list(docs.items())[:40])
    added = dict(list(docs.items())[40:])
    lean, full = both_layouts(tmp_path, first, "--threshold", "0.5")
    more = write_jsonl(tmp_path / "more.jsonl", added)
    for db in (lean, full):
        cli("add", db, more)
        cli("remove", db, "d0001v0", "d0003")
    rebuilt = make_index(tmp_path, {k: v for k, v in docs.items() if k not in ("d0001v0", "d0003")}, "rebuilt",
                         "--threshold", "0.5")  # fmt: skip
    assert not keeps_every_table(lean)
    kept = result_tables(lean)
    for other, tables in ((full, ("documents", "band_hashes", "candidates", "verified", "pairs")),
                          (rebuilt, ("band_hashes", "candidates", "verified", "pairs"))):  # fmt: skip
        expected = result_tables(other)
        for table in tables:
            assert kept[table] == expected[table], table
    assert rows(lean, "select id, n_shingles from signatures join documents using (doc_id) order by id") == rows(
        full, "select id, n_shingles from signatures join documents using (doc_id) order by id"
    )
    latest = "select counts from runs order by started_at desc limit 1"
    counts = [json.loads(rows(db, latest)[0][0]) for db in (lean, full)]
    assert counts[0]["shingles"] == counts[1]["shingles"] > 0


def test_batches_of_a_lean_run_keep_what_one_batch_keeps(tmp_path, monkeypatch):
    # several batches of documents (the shingles held for the run, appended batch by batch; the
    # signatures, whose MinHash values give the pairs' estimates, gathered from their batches'
    # tables) and of candidates (each verified from the run's shingles)
    docs = planted_corpus(30, 3, seed=8)
    whole = make_index(tmp_path, docs, "whole", "--threshold", "0.5", "--keep-all-tables")
    monkeypatch.setattr(plan_stages, "BATCH_DOCUMENTS", 17)
    monkeypatch.setattr(plan_stages, "BATCH_SHINGLES", 300)
    batched = make_index(tmp_path, docs, "batched", "--threshold", "0.5")
    assert not keeps_every_table(batched)
    got, expected = result_tables(batched), result_tables(whole)
    for table in ("documents", "band_hashes", "candidates", "verified", "pairs"):
        assert got[table] == expected[table], table


def test_a_lean_run_resumes_from_a_later_stage_with_what_it_does_not_keep_made_again(tmp_path):
    # the second run reuses the documents' stages (their shingles are not kept) and recomputes the
    # pairs at another threshold: their estimates need the MinHash values, made again for them
    table = write_jsonl(tmp_path / "docs.jsonl", planted_corpus(25, 3, seed=9))
    lean, full = tmp_path / "lean.duckdb", tmp_path / "full.duckdb"
    banding = ("--bands", "32", "--rows", "4")
    cli("run", table, "--db", lean, "-q", "--threshold", "0.5", *banding)
    second = cli("run", table, "--db", lean, "--threshold", "0.7", *banding, "-o", tmp_path / "lean.csv")
    cli("run", table, "--db", full, "-q", "--threshold", "0.7", *banding, "--keep-all-tables", "-o",
        tmp_path / "full.csv")  # fmt: skip
    assert re.search(r"verified: [0-9,]+ rows, reused", second)
    assert (tmp_path / "lean.csv").read_text() == (tmp_path / "full.csv").read_text()
    assert rows(lean, "select rows from stages where stage = 'shingles'") == rows(
        full, "select rows from stages where stage = 'shingles'"
    )


def test_a_run_on_a_full_index_with_other_inputs_leaves_no_stale_shingles(tmp_path):
    full = make_index(tmp_path, planted_corpus(10, 2, seed=2), "index", "--keep-all-tables")
    other = write_jsonl(tmp_path / "other.jsonl", planted_corpus(12, 2, seed=3))
    cli("run", other, "--db", full, "-q", "--replace")
    assert not keeps_every_table(full)  # lean now: no shingles of the documents it held before
    fresh = make_index(tmp_path, planted_corpus(12, 2, seed=3), "fresh", "--keep-all-tables")
    assert result_tables(full)["pairs"] == result_tables(fresh)["pairs"]


def test_keep_all_tables_on_a_lean_index_makes_its_tables_again(tmp_path):
    lean = make_index(tmp_path, planted_corpus(10, 2, seed=5), "index")
    cli("run", tmp_path / "index.jsonl", "--db", lean, "-q", "--keep-all-tables")
    assert keeps_every_table(lean)
    assert rows(lean, "select count(*) from shingles") == rows(lean, "select sum(n_shingles) from signatures")


def test_the_run_audit_measures_on_the_run_s_own_shingles(tmp_path):
    table = write_jsonl(tmp_path / "docs.jsonl", planted_corpus(20, 2, seed=7))
    said = [
        cli("run", table, "--db", tmp_path / f"{name}.duckdb", "--threshold", "0.5", "--audit", "30", *extra)
        for name, extra in (("lean", ()), ("full", ("--keep-all-tables",)))
    ]
    audits = [re.search(r"audit: recall .* found", text) for text in said]
    assert audits[0] and audits[1] and audits[0].group(0) == audits[1].group(0)


def test_info_says_what_takes_the_space(tmp_path):
    lean, full = both_layouts(tmp_path, planted_corpus(30, 2, seed=1), "--threshold", "0.5")
    said = {name: json.loads(cli("info", db, "--format", "json")) for name, db in (("lean", lean), ("full", full))}
    assert said["lean"]["layout"] == "lean" and said["full"]["layout"] == "full"
    assert said["lean"]["storage_version"] == "v1.2.0+"
    tables = {name: {t["table"]: t for t in info["tables"]} for name, info in said.items()}
    assert (
        "shingles" not in tables["lean"]
        and tables["full"]["shingles"]["rows"] == rows(full, "select count(*) from shingles")[0][0]
    )
    assert tables["lean"]["documents"]["rows"] == 90 and tables["lean"]["documents"]["blocks"] >= 1
    assert (
        said["lean"]["documents"] == 90
        and said["lean"]["text_bytes"] == rows(lean, "select sum(strlen(text)) from documents")[0][0]
    )
    assert said["lean"]["bytes_per_text_byte"] == round(lean.stat().st_size / said["lean"]["text_bytes"], 3)
    assert [run["run"] for run in said["lean"]["runs"]] == [1]
    # the pair tables of a lean index: views listing what it stores between groups of copies and within them
    for table in ("candidates", "verified", "pairs"):
        assert tables["lean"][table]["kind"] == "view" and tables["full"][table]["kind"] == "table"
        assert tables["lean"][table]["rows"] == tables["full"][table]["rows"] > 0, table
        assert tables["lean"][f"{table}_between"]["kind"] == "table"
    text = cli("info", lean)
    assert "layout: lean" in text and "band_hashes" in text and "bytes per byte of text" in text


def test_sql_on_what_a_lean_database_does_not_keep_says_how_to_keep_it(tmp_path):
    lean, full = both_layouts(tmp_path, planted_corpus(5, 1, seed=1))
    for statement in ("select count(*) from shingles", "select mh_0 from signatures"):
        result = CliRunner().invoke(app, ["sql", str(lean), statement])
        assert result.exit_code == 1 and result.stderr.count("\n") == 1
        assert "--keep-all-tables" in result.stderr
        assert CliRunner().invoke(app, ["sql", str(full), statement]).exit_code == 0


@pytest.mark.parametrize("audit", [False, True])
def test_a_lean_run_holds_only_what_a_later_stage_or_its_audit_reads(audit):
    """Plan.held: of the batched group's tables, the shingles without h (read by the verified stage
    and --audit; h only by the signatures stage of their batch) and the signatures whole (the pairs
    stage's estimates read the MinHash values); Plan.read_beyond_kept: the shingles are released
    once the verified stage has read them, unless --audit reads them after the stages."""
    from dedup.index.audit import WORK

    sketch = sketch_for()
    plan = plan_stages.compile_run(sketch, {}, None, "duckdb", lean=True, after=WORK if audit else ())
    [number] = [n for n, group in enumerate(plan.groups) if "shingles" in {stage.name for stage, _ in group}]
    assert plan.held(number) == {"shingles": ("doc_id", "fingerprint"), "signatures": None}
    stages = {stage.name: stage for group in plan.groups for stage, _ in group}
    after_verified = 1 + next(n for n, group in enumerate(plan.groups) if "verified" in {s.name for s, _ in group})
    assert plan.read_beyond_kept(stages["shingles"], after_verified) == (("doc_id", "fingerprint") if audit else ())
    assert plan.read_beyond_kept(stages["signatures"], len(plan.groups)) == ()
    full = plan_stages.compile_run(sketch, {}, None, "duckdb", lean=False)
    assert all(full.held(n) == {} for n in range(len(full.groups)))


def test_what_a_run_holds_is_not_made_again_nor_what_only_made_it():
    """Derivation.without: a statement reading the MinHash values while the run holds the
    signatures needs no step (not the shingles that made them); one reading the shingles while
    the run holds only the signatures needs the shingles made again."""
    steps = plan_stages.compile_stages(sketch_for(), "duckdb")
    layout = plan_stages.lean_layout(steps)
    estimates = layout.derivation("verified(doc_id_a, doc_id_b), signatures(doc_id, mh_*)")
    assert estimates is not None and estimates.needed == ("signatures",)
    assert estimates.without({"signatures"}) is None
    both = layout.derivation("shingles(doc_id, fingerprint), signatures(doc_id, mh_*)")
    assert both is not None
    rest = both.without({"signatures"})
    assert rest is not None and [stage.name for stage, _ in rest.steps] == ["shingles"]


@pytest.mark.parametrize(
    ("options", "lean", "after", "once"),
    [
        ({}, True, (), True),
        ({"method": "signature"}, True, (), True),
        ({}, False, (), False),  # a full database keeps every document's shingles
        ({}, True, ("audit_shingles",), False),  # --audit reads every document's
        ({"method": "exact"}, True, (), False),  # document frequencies over every document
        ({"max_shingle_df": "3"}, True, (), False),  # the documents that lost most, every one
    ],
)
def test_a_lean_run_shingles_each_distinct_text_once_unless_a_later_reader_needs_every_copy(options, lean, after, once):
    plan = plan_stages.compile_run(sketch_for(**options), {}, None, "duckdb", lean=lean, after=after)
    assert plan.distinct_texts is once
    assert plan.query("batch", "documents").name == ("batch_distinct_texts" if once else "batch_documents")
    assert not plan_stages.compile_run(sketch_for(**options), {}, None, "spark", lean=lean).distinct_texts


def with_copies(docs: dict[str, str]) -> dict[str, str]:
    """A corpus with exact copies after their first document (ids sort as doc_ids do), in its batch
    and in later ones, copies differing in case and spacing only, and copies of a text with no shingles."""
    return {
        **docs,
        "d0001-copy": docs["d0001"],
        "d0002-copy": docs["d0002"].upper().replace(" ", "  \n"),
        "zz-copy-1": docs["d0001"],
        "zz-copy-2": docs["d0003"],
        "zz-empty": "",
        "zz-empty-2": " \t ",
    }


@pytest.mark.parametrize("batch_documents", [None, 17])
def test_a_lean_run_holds_the_shingles_of_each_texts_first_document_and_gives_its_copies_its_rows(
    tmp_path, monkeypatch, batch_documents
):
    # the copies' signatures and band hashes are their first document's, in one batch and where a
    # copy's batch follows that document's: every table equals a full run's, which shingles each copy
    docs = with_copies(planted_corpus(30, 3, seed=8))
    whole = make_index(tmp_path, docs, "whole", "--threshold", "0.5", "--keep-all-tables")
    if batch_documents:
        monkeypatch.setattr(plan_stages, "BATCH_DOCUMENTS", batch_documents)
    shingled: list[set[str]] = []
    release = runner._release

    def release_and_look(engine, plan, next_group):
        held = [table for (table,) in engine.fetch_rows(engine.sql.query("retained_tables"))]
        if "shingles" in held and not shingled:
            query = "select d.id from documents as d semi join shingles as s on s.doc_id = d.doc_id"
            shingled.append({id_ for (id_,) in engine.fetch_rows(engine.sql.user_query(query))})
        release(engine, plan, next_group)

    monkeypatch.setattr(runner, "_release", release_and_look)
    lean = make_index(tmp_path, docs, "lean", "--threshold", "0.5")
    firsts: dict[str, str] = {}
    for id_ in sorted(docs):
        firsts.setdefault(" ".join(docs[id_].lower().split()), id_)
    firsts.pop("")
    assert shingled == [set(firsts.values())]
    got, expected = result_tables(lean), result_tables(whole)
    for table in ("documents", "band_hashes", "candidates", "verified", "pairs"):
        assert got[table] == expected[table], table
    for query in (
        "select doc_id, n_shingles from signatures order by doc_id",
        "select doc_id, rep, shared_bands from copies order by doc_id",
        "select * from clusters order by doc_id",
    ):
        assert rows(lean, query) == rows(whole, query), query
    assert rows(lean, "select rows from stages where stage = 'shingles'") == rows(
        whole, "select rows from stages where stage = 'shingles'"
    )
