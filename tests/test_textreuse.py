"""R textreuse's corpora: our word shingles reproduce the published Jaccard values."""

from __future__ import annotations

import re

import duckdb
import pytest
from helpers import run_stages, sketch_for

import dedup


def expected_values(shared_corpora, section: str) -> dict[frozenset, float]:
    text = (shared_corpora / "textreuse" / "expected" / "python_regex_word_shingle_jaccard.txt").read_text()
    block = text.split(f"== {section} ")[1].split("==")[0]
    return {frozenset(m[:2]): float(m[2]) for m in re.findall(r"^\s+(\S+) (\S+) ([0-9.]+)$", block, re.M)}


def run_all_pairs(folder, k, tmp_path):
    """Exact Jaccard of every pair: a real run, then the verify stage on all pairs as candidates."""
    db = tmp_path / f"all-{folder.name}-{k}.duckdb"
    dedup.run(folder, 0.0, shingle_type="word", shingle_size=k, db=db, keep_all_tables=True)
    settings = sketch_for(shingle_type="word", shingle_size=k, threshold=0.0)
    con = duckdb.connect(str(db))
    con.execute(
        "create or replace table candidates as select a.doc_id as doc_id_a, b.doc_id as doc_id_b, 0 as shared_bands "
        "from documents a join documents b on a.doc_id < b.doc_id"
    )
    run_stages(con, settings, start="verified", until="verified")
    rows = con.execute(
        "select da.id, db.id, v.jaccard from verified v join documents da on da.doc_id = v.doc_id_a "
        "join documents db on db.doc_id = v.doc_id_b"
    ).fetchall()
    con.close()
    return {frozenset((a[:-4], b[:-4])): j for a, b, j in rows}


@pytest.mark.parametrize("k", [3, 5, 7])
def test_legal_python_regex_values_to_1e6(shared_corpora, k, tmp_path):
    got = run_all_pairs(shared_corpora / "textreuse" / "legal", k, tmp_path)
    for pair, value in expected_values(shared_corpora, f"legal n={k}").items():
        assert got[pair] == pytest.approx(value, abs=1e-6)


def test_legal_textreuse_published_values_within_001(shared_corpora, tmp_path):
    got3 = run_all_pairs(shared_corpora / "textreuse" / "legal", 3, tmp_path)
    got7 = run_all_pairs(shared_corpora / "textreuse" / "legal", 7, tmp_path)
    assert got3[frozenset(("ca1851-match", "ny1850-match"))] == pytest.approx(0.535, abs=0.01)
    assert got7[frozenset(("ca1851-match", "ny1850-match"))] == pytest.approx(0.3842549, abs=0.01)


def test_ats_python_regex_values_and_threshold_pair(shared_corpora, tmp_path):
    folder = tmp_path / "ats10"
    folder.mkdir()
    for sub in ("ats", "ats_removed_2015"):
        for path in (shared_corpora / "textreuse" / sub).glob("*.txt"):
            (folder / path.name).write_bytes(path.read_bytes())
    got = run_all_pairs(folder, 5, tmp_path)
    for pair, value in expected_values(shared_corpora, "ats10 n=5").items():
        assert got[pair] == pytest.approx(value, abs=1e-6)
    published = {
        ("remember00palm", "remembermeorholy00palm"): 0.7005667,
        ("calltounconv00baxt", "lifeofrevrichard00baxt"): 0.281,
    }
    for pair, value in published.items():
        assert got[frozenset(pair)] == pytest.approx(value, abs=0.01)
    at_08 = dedup.run(folder, 0.8, shingle_type="word", shingle_size=5).to_pylist()
    assert [(r["id_a"], r["id_b"]) for r in at_08] == [("doddridgephilip00doddrich.txt", "memoiroflifecha00dodd.txt")]
