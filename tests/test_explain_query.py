"""explain's figures equal a recomputation; query equals a scan; buckets add up."""

from __future__ import annotations

import duckdb
import pytest
import reference
from corpora import planted_corpus
from indexing import invoke, make_index, rows
from typer.testing import CliRunner

from dedup.cli import app
from dedup.engines.duckdb import DuckDBEngine
from dedup.index.documents import index_sketch
from dedup.index.explain import explain_pair, format_explanation
from dedup.index.similar import query_index


def buckets_of(text: str, kind: str, k: int, bands: int, rows_: int, num_perm: int = 128) -> list[int]:
    """The reference band buckets (tests/reference.py)."""
    return reference.buckets(reference.signature(reference.shingles(text, k, kind), 1, num_perm, kind), bands, rows_)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("planted")
    docs = planted_corpus(25, 3, seed=21)
    db = make_index(tmp_path, docs, "index", "--threshold", "0.5", "--shingle-type", "word", "-k", "2")
    return docs, db


@pytest.mark.parametrize("kind,k", [("char", 9), ("word", 2)])
def test_explain_equals_recomputation(tmp_path, kind, k):
    docs = planted_corpus(6, 3, seed=4)
    db = make_index(tmp_path, docs, "index", "--threshold", "0.5", "--shingle-type", kind, "-k", str(k))
    con = duckdb.connect(str(db), read_only=True)
    sketch = index_sketch(DuckDBEngine(con))
    b, r = sketch.banding.bands, sketch.banding.rows
    for id_a, id_b in [("d0001", "d0001v0"), ("d0001v2", "d0001v1"), ("d0002", "d0003")]:
        e = explain_pair(DuckDBEngine(con), id_a, id_b, examples=4)
        a, bset = reference.shingles(docs[e.id_a], k, kind), reference.shingles(docs[e.id_b], k, kind)
        assert (e.shingles_a, e.shingles_b, e.shared) == (len(a), len(bset), len(a & bset))
        assert e.jaccard == pytest.approx(reference.jaccard(a, bset), abs=1e-12)
        sa, sb = reference.signature(a, 1, 128, kind), reference.signature(bset, 1, 128, kind)
        assert e.estimate == sum(x == y for x, y in zip(sa, sb, strict=True)) / 128
        ba, bb = buckets_of(docs[e.id_a], kind, k, b, r), buckets_of(docs[e.id_b], kind, k, b, r)
        assert e.collided_bands == [band for band in range(b) if ba[band] == bb[band]]
        assert e.probability_none == pytest.approx((1 - e.jaccard**r) ** b)
        assert set(e.shared_examples) <= a & bset and len(e.shared_examples) == min(4, len(a & bset))
        assert set(e.only_a_examples) <= a - bset and set(e.only_b_examples) <= bset - a
        in_pairs = rows(
            db, f"select count(*) from pairs where '{e.id_a}' in (id_a, id_b) and '{e.id_b}' in (id_a, id_b)"
        )
        assert e.stage.startswith("kept") == bool(in_pairs[0][0])
        if not e.collided_bands:
            assert e.stage.startswith("dropped at candidates")
    con.close()


def test_explain_cli_and_errors(planted):
    _, db = planted
    out = invoke("explain", db, "d0001", "d0001v0").stdout
    con = duckdb.connect(str(db), read_only=True)
    e = explain_pair(DuckDBEngine(con), "d0001", "d0001v0", examples=3)
    con.close()
    assert out == format_explanation(e) + "\n"  # the command prints the library's explanation
    lines = out.splitlines()
    assert lines[0] == f"a: {e.id_a}  ({e.shingles_a} shingles)" and e.shingles_a > 0
    assert lines[3].startswith(f"jaccard: {e.jaccard:.6f} exact, ") and e.jaccard == e.shared / (
        e.shingles_a + e.shingles_b - e.shared
    )
    assert lines[5] == f"stage: {e.stage}" and e.stage.startswith("kept")
    assert lines[6].startswith("shared shingles: ") and len(e.shared_examples) == 3
    result = CliRunner().invoke(app, ["explain", str(db), "d0001", "missing"])
    assert result.exit_code == 1 and "missing" in result.stderr


def test_query_by_id_equals_the_pairs_of_that_document(planted):
    docs, db = planted
    con = duckdb.connect(str(db), read_only=True)
    for doc_id in ("d0003", "d0010v1", "d0020v2"):
        got = query_index(DuckDBEngine(con), doc_id=doc_id).to_pylist()
        expected = rows(
            db,
            f"""select if(id_a = '{doc_id}', id_b, id_a) as other, jaccard from pairs
                where '{doc_id}' in (id_a, id_b) order by jaccard desc, other""",
        )
        assert [(row["id"], row["jaccard"]) for row in got] == expected
    con.close()


@pytest.mark.parametrize("min_bands", [1, 3])
def test_query_by_text_equals_a_scan(planted, min_bands):
    docs, db = planted
    con = duckdb.connect(str(db), read_only=True)
    sketch = index_sketch(DuckDBEngine(con))
    b, r = sketch.banding.bands, sketch.banding.rows
    text = docs["d0007"].replace(docs["d0007"].split()[3], "changed") + " and one more"
    query_buckets = buckets_of(text, "word", 2, b, r)
    query_set = reference.shingles(text, 2, "word")
    got = [
        (row["id"], row["jaccard"], row["shared_bands"])
        for row in query_index(DuckDBEngine(con), text=text, min_jaccard=0.2, min_bands=min_bands).to_pylist()
    ]
    con.close()
    stored = {}
    for doc_id, band, bucket in rows(db, "select d.id, band, bucket from band_hashes join documents d using (doc_id)"):
        stored.setdefault(doc_id, {})[band] = bucket
    expected = []
    for doc_id, doc_text in docs.items():
        shared = sum(stored[doc_id][band] == query_buckets[band] for band in range(b))
        j = reference.jaccard(query_set, reference.shingles(doc_text, 2, "word"))
        if shared >= min_bands and j >= 0.2:
            expected.append((doc_id, j, shared))
    expected.sort(key=lambda item: (-item[1], item[0]))
    assert len(expected) >= 2
    assert [(i, round(j, 12), s) for i, j, s in got] == [(i, round(j, 12), s) for i, j, s in expected]


def test_query_cli(planted, tmp_path):
    docs, db = planted
    query_file = tmp_path / "q.txt"
    query_file.write_text(docs["d0005"])
    out = invoke("query", db, "--file", query_file, "--format", "csv").stdout.splitlines()
    assert out[0] == "id,jaccard,shared_bands" and out[1].startswith("d0005,1.0,")
    result = CliRunner().invoke(app, ["query", str(db), "--text", "x", "--id", "d0005"])
    assert result.exit_code == 2 and "exactly one" in result.stderr
    result = CliRunner().invoke(app, ["query", str(db), "--text", "x", "--min-bands", "0"])
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["query", str(db), "--file", str(tmp_path)])  # a folder: was a traceback
    assert (result.exit_code, result.stderr) == (2, f"Error: cannot read --file {tmp_path}: Is a directory\n")


@pytest.mark.parametrize("method", ["lsh", "exact"])
def test_a_query_without_shingles_says_so(tmp_path, method):
    """`dedup query --text ""` (or whitespace, or an indexed empty document) printed an empty table
    and exit 0, which reads as "nothing similar": a query without shingles cannot be answered."""
    docs = {"full": "the quick brown fox jumps over the lazy dog", "blank": " \t "}
    db = make_index(tmp_path, docs, "index", "--method", method, "--threshold", "0.5")
    for option, value in (("--text", ""), ("--text", " \t\u3000 "), ("--id", "blank")):
        result = CliRunner().invoke(app, ["query", str(db), option, value])
        what = "document 'blank'" if option == "--id" else "the query text"
        assert (result.exit_code, result.stdout) == (1, ""), result.output
        assert result.stderr.startswith(f"Error: {what} has no shingles") and result.stderr.count("\n") == 1
    assert "full" in invoke("query", db, "--text", "the quick brown fox jumps", "--min-jaccard", "0.1").stdout


def test_buckets_add_up(planted):
    docs, db = planted
    out = invoke("buckets", db, "--top", "3").stdout
    con = duckdb.connect(str(db), read_only=True)
    from dedup.index.buckets import bucket_sizes, largest_buckets

    per_band = bucket_sizes(DuckDBEngine(con)).to_pylist()
    largest = largest_buckets(DuckDBEngine(con), 3, 2).to_pylist()
    con.close()
    n = len(docs)
    for row in per_band:
        assert row["mean_size"] * row["buckets"] == pytest.approx(n)
        assert row["single"] + row["shared"] == row["buckets"]
    sizes = rows(
        db, "select count(*) from band_hashes group by band, bucket having count(*) > 1 order by 1 desc limit 3"
    )
    assert [row["size"] for row in largest] == [s for (s,) in sizes]
    assert all(len(row["sample_ids"].split(", ")) == min(2, row["size"]) for row in largest)
    per_band_out, largest_out = out.split("\n\n")
    assert [line.split()[:5] for line in per_band_out.splitlines()[2:]] == [
        [str(row[key]) for key in ("band", "buckets", "single", "shared", "largest")] for row in per_band
    ]
    assert [line.split()[:3] for line in largest_out.splitlines()[2:]] == [
        [str(row["band"]), str(row["bucket"]), str(row["size"])] for row in largest
    ]


@pytest.mark.slow
@pytest.mark.parametrize("kind,k", [("char", 5), ("word", 3)])
def test_shingle_texts_recompute_the_stored_fingerprints(tmp_path, kind, k):
    """explain's shingle texts come from the shingle stage's fragment: they must give the same set."""
    from dedup.bindings import parameter_values
    from dedup.sqlfiles import query
    from dedup.stages import shingle_text_fragments

    long_text = " ".join(f"Wörd{i % 97} ünd {i}" for i in range(400))
    docs = {"long": long_text, "short": "tiny", "other": "Größe und Maß: ÉTÉ à Paris, naïve café " * 20}
    db = make_index(tmp_path, docs, "index", "--shingle-type", kind, "-k", str(k), "--keep-all-tables")
    con = duckdb.connect(str(db), read_only=True)
    sketch = index_sketch(DuckDBEngine(con))
    values = {**parameter_values(sketch, "duckdb"), "doc_id_a": 1, "doc_id_b": 3}
    got = DuckDBEngine(con).fetch_rows(query("shingle_texts", values, "duckdb", **shingle_text_fragments(kind, k)))
    stored = con.execute("select doc_id, fingerprint from shingles where doc_id in (1, 3)").fetchall()
    ids = dict(con.execute("select doc_id, id from documents").fetchall())
    con.close()
    assert {(d, f) for d, f, _ in got} == set(stored) and len(got) == len(stored) > 300
    for doc_id, fingerprint, shingle in got:
        assert reference.fingerprint(shingle, kind) == fingerprint
        assert shingle in reference.shingles(docs[ids[doc_id]], k, kind)
