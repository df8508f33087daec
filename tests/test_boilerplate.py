"""--max-shingle-df against the reference: the shingles a cap leaves out (the boilerplate stage), each
document's set, and the pairs of both methods, on hand-made texts and hypothesis inputs."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest
import reference
from helpers import load_documents, run_stages, shingle_sets, sketch_for
from helpers import rows as con_rows
from hypothesis import given
from hypothesis import strategies as st
from indexing import make_index, rows, write_jsonl
from typer.testing import CliRunner

import dedup
from dedup import runner, stages
from dedup.cli import app
from dedup.errors import UsageError
from dedup.frequency_cap import FrequencyCap

# Few words, so that shingles are shared by many texts, and copies among them.
WORDS = ["the", "licence", "mit", "copyright", "holder", "fox", "dog", "Fox", "a"]
texts = st.lists(st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join), min_size=1, max_size=9)
caps = st.one_of(st.integers(1, 4).map(str), st.sampled_from(["0.1", "0.25", "0.5", "0.75"]))


def cap_of(cap: str) -> dict[str, object]:
    parsed = FrequencyCap.parse(cap)
    return {"count": parsed.count, "fraction": parsed.fraction}


def sql_capped(texts: list[str], kind: str, k: int, cap: str) -> tuple[dict[int, set[int]], dict[int, tuple[int, int]]]:
    """Each document's capped set (the shingles table), and the mostly_boilerplate table's rows."""
    con = duckdb.connect()
    sketch = sketch_for(shingle_type=kind, shingle_size=k, num_perm=4, bands=4, rows=1, max_shingle_df=cap)
    sets = shingle_sets(con, texts, sketch)
    mostly = {i: (n, lost) for i, n, lost in con_rows(con, "select id, shingles, left_out from mostly_boilerplate")}
    con.close()
    return sets, mostly


HAND_MADE = [
    "The MIT licence: the copyright holder",
    "the mit licence the copyright holder",  # the same normalized text but the colon: not a copy
    "The MIT licence: the copyright holder",  # a copy of the first
    "the quick fox and the dog",
    "the MIT licence",
    "the MIT licence",  # two copies of a text every shingle of which is boilerplate
    "",
]


@pytest.mark.parametrize("kind, k", [("word", 2), ("word", 1), ("char", 4)])
@pytest.mark.parametrize("cap", ["1", "2", "0.5"])
def test_hand_made_capped_sets_equal_reference(kind, k, cap):
    docs = dict(enumerate(HAND_MADE, 1))
    sets, mostly = sql_capped(HAND_MADE, kind, k, cap)
    assert sets == reference.capped_sets(docs, k, kind, **cap_of(cap))
    assert mostly == reference.mostly_boilerplate(docs, k, kind, **cap_of(cap))
    assert mostly  # the cap takes most of some sets


@given(texts=texts, k=st.integers(1, 3), kind=st.sampled_from(["char", "word"]), cap=caps)
def test_property_capped_sets_equal_reference(texts, k, kind, cap):
    docs = dict(enumerate(texts, 1))
    sets, mostly = sql_capped(texts, kind, k, cap)
    assert sets == reference.capped_sets(docs, k, kind, **cap_of(cap))
    assert mostly == reference.mostly_boilerplate(docs, k, kind, **cap_of(cap))


def test_the_boilerplate_table_holds_each_left_out_shingle_with_its_document_frequency():
    con = duckdb.connect()
    sketch = sketch_for(shingle_type="word", shingle_size=2, max_shingle_df="2")
    docs = ["a b c", "a b d", "a b e", "a b c", "x y"]  # "a b" in 3 distinct texts: the copy counts once
    load_documents(con, docs, sketch)
    run_stages(con, sketch, until="boilerplate", start="all_shingles")
    expected = reference.fingerprints({"a b"}, "word")
    assert con_rows(con, "select fingerprint, df from boilerplate") == [(fp, 3) for fp in expected]


@given(
    texts=texts,
    k=st.integers(1, 3),
    kind=st.sampled_from(["char", "word"]),
    cap=caps,
    method=st.sampled_from(["exact", "lsh"]),
)
def test_property_pairs_of_a_run_equal_the_reference(texts, k, kind, cap, method):
    docs = dict(enumerate(texts, 1))
    expected = reference.set_pairs(reference.capped_sets(docs, k, kind, **cap_of(cap)), 0.5)
    got = dedup.run(
        documents=texts, threshold=0.5, shingle_type=kind, shingle_size=k, max_shingle_df=cap, method=method,
        num_perm=64, bands=64, rows=1,
    )  # fmt: skip
    assert {(r["id_a"], r["id_b"]): r["jaccard"] for r in got.to_pylist()} == expected


def test_identical_texts_stay_a_pair_and_an_emptied_text_pairs_with_nothing_else():
    texts = ["the mit licence", "the mit licence", "the MIT licence!", "the mit licence here"] + [
        f"the mit licence of project {n}" for n in range(5)
    ]
    got = dedup.run(documents=texts, threshold=0.1, shingle_type="word", shingle_size=2, max_shingle_df=3)
    pairs = {(r["id_a"], r["id_b"]): r["jaccard"] for r in got.to_pylist()}
    assert pairs[(1, 2)] == 1.0  # every shingle left out, and still copies
    assert (1, 3) not in pairs and (2, 3) not in pairs  # another text with the same (empty) set: not a pair


@pytest.mark.parametrize(
    "value, message",
    [
        ("0", "at least 1"),
        ("1.5", "between 0 and 1"),
        ("20.0", "between 0 and 1"),
        ("lots", "a count of texts"),
        ("-3", "at least 1"),
    ],
)
def test_a_cap_that_is_no_count_nor_fraction_is_a_usage_error(value, message):
    with pytest.raises(UsageError, match=message):
        sketch_for(max_shingle_df=value)


def test_a_cap_has_one_spelling():
    assert sketch_for(max_shingle_df=20).max_shingle_df == "20"
    assert sketch_for(max_shingle_df=" 0.010 ").max_shingle_df == "0.01"
    assert sketch_for().max_df is None


LICENCE = "permission is hereby granted free of charge to any person obtaining a copy of this software"
PROJECTS = {
    **{
        f"mit-{n}": f"project {name} by {name} authors. {LICENCE}"
        for n, name in enumerate(["ant", "bee", "cat", "dog"])
    },
    "fork-a": f"the fox library parses json quickly and well. {LICENCE}",
    "fork-b": f"the fox library parses json quickly and well! {LICENCE}",
    "copy-1": LICENCE,
    "copy-2": LICENCE,
}


@pytest.fixture(scope="module")
def capped(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("capped")
    return make_index(folder, PROJECTS, "capped", "--threshold", "0.5", "--shingle-type", "word", "-k", "3",
                      "--max-shingle-df", "3")  # fmt: skip


def test_a_capped_index_keeps_the_left_out_shingles_and_its_pairs_equal_the_reference(capped):
    sets = reference.capped_sets(PROJECTS, 3, "word", count=3)
    expected = reference.set_pairs(sets, 0.5)
    got = dict(
        ((a, b), j) for a, b, j in rows(capped, "select least(id_a, id_b), greatest(id_a, id_b), jaccard from pairs")
    )
    assert got == {(min(a, b), max(a, b)): j for (a, b), j in expected.items()}
    assert ("copy-1", "copy-2") in got and ("fork-a", "fork-b") in got  # and the licence joins no project
    left_out = reference.boilerplate(PROJECTS, 3, "word", count=3)
    assert set(rows(capped, "select fingerprint, df from boilerplate")) == set(left_out.items())
    licence = reference.fingerprints(reference.shingles(LICENCE, 3, "word"), "word")
    assert {left_out[fp] for fp in licence} == {7}  # four projects, the fork (twice: not copies), the copies once


@pytest.mark.parametrize("method", ["exact", "lsh"])
def test_a_capped_run_in_batches_lists_the_pairs_of_the_reference_once(monkeypatch, method):
    """The shingles of every batch are counted before any is left out, and each batch keeps its own
    documents' (three batches of three documents here)."""
    monkeypatch.setattr(stages, "BATCH_DOCUMENTS", 3)
    texts = list(PROJECTS.values())
    expected = reference.set_pairs(reference.capped_sets(dict(enumerate(texts, 1)), 3, "word", count=3), 0.5)
    got = dedup.run(
        documents=texts, threshold=0.5, shingle_type="word", shingle_size=3, max_shingle_df=3, method=method,
        num_perm=64, bands=64, rows=1,
    )  # fmt: skip
    assert sorted((r["id_a"], r["id_b"], r["jaccard"]) for r in got.to_pylist()) == sorted(
        (a, b, j) for (a, b), j in expected.items()
    )


@pytest.mark.parametrize("audit", [None, 10])
def test_a_capped_run_releases_what_it_holds_once_no_stage_reads_it(monkeypatch, audit):
    """What the run holds after each group of stages (dedup.runner._release, Plan.held): the
    shingles before the cap until the shingles stage has kept those under it; the shingles until
    the verified stage has read them, or with --audit, which reads them after the stages, until the
    run ends; the signatures, gathered from their batches' tables, until the pairs stage has read
    their MinHash values."""
    held: list[list[str]] = []
    gathered: list[bool] = []
    release = runner._release

    def release_and_look(engine, plan, next_group):
        release(engine, plan, next_group)
        held.append([table for (table,) in engine.fetch_rows(engine.sql.query("retained_tables"))])
        gathered.append(not runner.is_temporary(engine, "signatures 0"))  # its batch's table, gathered

    monkeypatch.setattr(runner, "_release", release_and_look)
    dedup.run(documents=list(PROJECTS.values()), shingle_type="word", shingle_size=3, max_shingle_df=3, audit=audit)
    assert any("all_shingles" in tables for tables in held)
    assert any({"shingles", "signatures"} <= set(tables) for tables in held)
    assert held[-1] == ([] if audit is None else ["shingles"])
    assert all(gathered)


def test_the_summary_counts_the_left_out_shingles_and_the_documents_that_lost_most(tmp_path):
    table = write_jsonl(tmp_path / "docs.jsonl", PROJECTS)
    result = CliRunner().invoke(app, ["run", str(table), "--shingle-type", "word", "-k", "3", "--max-shingle-df", "3"])
    assert result.exit_code == 0, result.stderr
    mostly = len(reference.mostly_boilerplate(PROJECTS, 3, "word", count=3))
    assert "boilerplate: 15 shingles left out of every document's set, each held by more than 3 distinct texts" in (
        result.stderr
    )
    assert f"{mostly} documents lost more than half of theirs" in result.stderr
    assert mostly == 8  # every text is mostly the licence


def test_explain_names_the_shared_shingles_left_out(capped):
    result = CliRunner().invoke(app, ["explain", str(capped), "mit-0", "mit-1"])
    assert result.exit_code == 0, result.stderr
    assert "boilerplate: 15 shingles both hold, left out of their sets by --max-shingle-df 3: " in result.stdout
    assert "(7 texts)" in result.stdout
    assert "shared: 0 " in result.stdout  # what is left of their sets shares nothing


def test_the_report_lists_the_left_out_shingles_with_their_document_frequency(capped, tmp_path):
    page = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["report", str(capped), "-o", str(page)])
    assert result.exit_code == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert "Boilerplate left out: --max-shingle-df 3" in html
    shown = re.findall(r'<td class="num">(\d+)</td><td><code>([^<]*)</code>', html)
    licence = LICENCE.split()
    windows = {" ".join(licence[i : i + 3]) for i in range(len(licence) - 2)}
    assert len(shown) == 10 and all(df == "7" and shingle in windows for df, shingle in shown)  # the top 10


@pytest.mark.parametrize("command", ["add", "remove"])
def test_add_and_remove_refuse_a_capped_index_in_one_line(capped, tmp_path, command):
    argument = write_jsonl(tmp_path / "new.jsonl", {"new": "a new text"}) if command == "add" else "mit-0"
    result = CliRunner().invoke(app, [command, str(capped), str(argument)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert f"cannot {command} documents: the index was built with --max-shingle-df 3" in result.stderr


@pytest.mark.parametrize("exact", [False, True])
def test_a_query_text_leaves_out_what_the_index_left_out(capped, tmp_path, exact):
    """The query's stages read the index's boilerplate table: a text of the index finds what its
    document's pairs are (a boilerplate stage of its own, over the query alone, left out nothing
    with a count, and every shingle with a fraction)."""
    query = tmp_path / "query.txt"
    query.write_text(PROJECTS["fork-a"], encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["query", str(capped), "--file", str(query), "--min-jaccard", "0.1", "--format", "csv", *(["--exact"] * exact)],
    )
    assert result.exit_code == 0, result.stderr
    sets = reference.capped_sets(PROJECTS, 3, "word", count=3)
    expected = {doc: reference.jaccard(sets["fork-a"], held) for doc, held in sets.items()}
    found = {line.split(",")[0]: float(line.split(",")[1]) for line in result.stdout.splitlines()[1:]}
    assert found == {doc: j for doc, j in expected.items() if j >= 0.1}
    assert set(found) == {"fork-a", "fork-b"}
