"""`dedup report`: the page holds what the database holds, escapes documents, loads nothing."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest
from conftest import REPO
from indexing import invoke, rows
from reporting import HOSTILE, clough_db, hostile_db
from typer.testing import CliRunner

from dedup.banding import detection_probability
from dedup.cli import app
from dedup.engines.duckdb import DuckDBEngine
from dedup.hashing import SCHEME
from dedup.html_report.charts import size_bins
from dedup.html_report.data import HISTOGRAM_WIDTH, gather, histogram_bins
from dedup.html_report.diff import shared_text, side_by_side


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text, as a browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    return parser


def report(db: Path, out: Path, *options: object) -> str:
    invoke("report", db, "--output", out, *options)
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def clough(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("clough")
    db = clough_db(tmp, "--threshold", "0.5")
    return db, report(db, tmp / "report.html")


def test_every_section_is_there_and_the_page_loads_nothing(clough):
    _, page = clough
    elements = parse(page)
    ids = {attrs.get("id") for _, attrs in elements.tags}
    assert {"summary", "threshold", "duplicates", "boilerplate", "clusters", "jaccard-chart", "cluster-chart"} <= ids
    tags = {tag for tag, _ in elements.tags}
    assert not tags & {"script", "img", "link", "iframe", "object", "embed"}
    for _, attrs in elements.tags:  # nothing fetched: no src, no remote href, no inline handlers
        assert "src" not in attrs
        assert not any(name.startswith("on") for name in attrs)
        assert (attrs.get("href") or "#").startswith("#")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert len(page.encode()) < 5_000_000


def test_the_summary_accounts_for_every_input_and_stage(clough):
    db, page = clough
    text = " ".join(" ".join(parse(page).text).split())
    assert "100 read = 100 processed + 0 empty + 0 skipped" in text
    assert "17 decoded as Latin-1" in text
    for (stage,) in rows(db, "select stage from stages"):
        assert f">{stage}</td>" in page
    assert SCHEME in text
    assert str(db.resolve()) in text


def test_the_page_holds_the_largest_clusters_and_pairs_near_the_threshold(clough):
    db, page = clough
    ids = {attrs.get("id") for _, attrs in parse(page).tags}
    clusters = rows(
        db, "select distinct cluster_id, cluster_size from clusters where cluster_size > 1 order by 2 desc, 1 limit 10"
    )
    assert clusters and all(f"cluster-{cluster_id}" in ids for cluster_id, _ in clusters)
    nearest = rows(
        db, "select doc_id_a, doc_id_b from verified order by abs(jaccard - 0.5), doc_id_a, doc_id_b limit 1"
    )
    assert f"pair-{nearest[0][0]}-{nearest[0][1]}" in ids
    survivors = {i for (i,) in rows(db, "select id from clusters where is_survivor and cluster_size > 1")}
    assert any(f'<span class="id{" survivor-id"}">{s}</span>' in page for s in survivors)


def test_gathered_figures_equal_the_database(clough):
    db, _ = clough
    con = duckdb.connect(str(db), read_only=True)
    try:
        data = gather(DuckDBEngine(con), db, top=3, sample_pairs=7)
        verified = con.execute("select jaccard from verified").fetchall()
    finally:
        con.close()
    assert sum(count for _, _, count in data.histogram) == len(verified)
    kept = sum(count for low, _, count in data.histogram if low >= 0.5 - 1e-12)
    assert kept == data.totals["pairs"] == sum(1 for (j,) in verified if j >= 0.5)
    banding = data.banding
    expected = sum(
        (1 - p) / p for (j,) in verified if j >= 0.5 for p in [detection_probability(j, *banding_of(banding))]
    )
    assert data.missed == pytest.approx(expected)
    assert data.near_below == sum(1 for (j,) in verified if 0.45 <= j < 0.5)
    assert len(data.pair_sample) == 7 and len(data.clusters) == 3 and len(data.buckets) <= 3
    assert sum(size * count for size, count in data.cluster_sizes) == data.totals["documents"] == 100
    distances = [abs(p.jaccard - 0.5) for p in data.pair_sample]
    assert distances[0] == min(abs(j - 0.5) for (j,) in verified)
    for pair in data.pair_sample:  # the estimate is the share of equal MinHash values, as in pairs
        found = rows(db, f"select estimate from pairs where doc_id_a = {pair.doc_id_a} and doc_id_b = {pair.doc_id_b}")
        if found:
            assert pair.estimate == pytest.approx(found[0][0])


def banding_of(banding) -> tuple[int, int]:
    return banding.bands, banding.rows


def test_histogram_bins_are_aligned_on_the_threshold():
    assert histogram_bins(0.8) == (-40, 9)
    lowest, highest = histogram_bins(0.75)
    assert 0.75 + lowest * HISTOGRAM_WIDTH <= 0 < 0.75 + (lowest + 1) * HISTOGRAM_WIDTH
    assert 0.75 + highest * HISTOGRAM_WIDTH < 1 <= 0.75 + (highest + 1) * HISTOGRAM_WIDTH


def test_hostile_documents_and_ids_are_shown_as_text(tmp_path):
    db = hostile_db(tmp_path)
    page = report(db, tmp_path / "report.html")
    elements = parse(page)
    tags = {tag for tag, _ in elements.tags}
    assert "script" not in tags and "img" not in tags and "blink" not in tags
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;" in page
    text = "".join(elements.text)
    assert "<script>document.title" in text and '<img src=x onerror="window.pwned = 2">' in text
    evil_id = next(i for i in HOSTILE if i.startswith("evil<"))
    assert evil_id in text  # the id, quotes and ampersand included, as text
    pair_tags = [attrs for tag, attrs in elements.tags if tag == "article"]
    assert any(evil_id in (attrs.get("data-id-a"), attrs.get("data-id-b")) for attrs in pair_tags)


def test_top_and_sample_pairs_bound_what_is_shown(tmp_path, clough):
    db, _ = clough
    page = report(db, tmp_path / "small.html", "--top", "1", "--sample-pairs", "2")
    elements = parse(page)
    clusters = [a for t, a in elements.tags if t == "div" and (a.get("id") or "").startswith("cluster-")]
    pairs = [a for t, a in elements.tags if t == "article"]
    assert len(clusters) == 1
    assert len(pairs) == 1 + 2  # the cluster's pair and the sample
    none = parse(report(db, tmp_path / "none.html", "--top", "0", "--sample-pairs", "0"))
    assert not [a for t, a in none.tags if t == "article"]


def test_the_report_is_the_same_bytes_every_time(tmp_path, clough):
    db, page = clough
    assert report(db, tmp_path / "again.html") == page


def test_the_report_goes_to_standard_output_as_asked(tmp_path, clough, monkeypatch):
    """`-o -` wrote a file named `-`; `-o /dev/stdout` on a pipe failed (`No such file or
    directory`: the name it resolves to is not a file)."""
    import subprocess
    import sys

    db, _ = clough
    invoke("report", db, "--output", tmp_path / "file.html")
    page = (tmp_path / "file.html").read_bytes()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(app, ["report", str(db), "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == page
    assert result.stderr.startswith("wrote the report to standard output (0.15 MB) in ")
    for output in ("-", "/dev/stdout"):
        piped = subprocess.run(
            [sys.executable, "-m", "dedup", "report", str(db), "-o", output], capture_output=True, timeout=120
        )
        assert piped.returncode == 0, piped.stderr
        assert piped.stdout == page
    assert list(cwd.iterdir()) == []


def test_a_run_without_pairs_still_reports(tmp_path):
    db = clough_db(tmp_path, "--threshold", "0.99")
    page = report(db, tmp_path / "report.html")
    assert "No clusters: no pair reached the threshold." in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.duckdb"], "no database at"),
        (["{db}", "--output", "{tmp}/no/such/folder/r.html"], "folder of the output file does not exist"),
        (["{db}", "--output", "{tmp}"], "is a folder: name a file"),
        (["{db}", "--output", "{tmp}/" + "r" * 252 + ".html"], "a file name holds at most 255"),
        (["{db}", "--top", "-1"], "Invalid value"),
        (["{db}", "--output", "{db}"], "is the database"),
    ],
)
def test_bad_arguments_are_one_line_usage_errors(tmp_path, args, message):
    db = tmp_path / "db.duckdb"
    duckdb.connect(str(db)).close()
    given = [a.format(db=db, tmp=tmp_path) for a in args]
    result = CliRunner().invoke(app, ["report", *given])
    assert result.exit_code == 2, result.output
    assert message in result.output or message in result.stderr
    assert "Traceback" not in result.output


def test_a_database_without_clusters_is_refused_with_what_to_do(tmp_path):
    import dedup

    db = tmp_path / "api.duckdb"
    dedup.run(str(Path(__file__).resolve().parent.parent / "data" / "clough"), 0.8, db=str(db))
    con = duckdb.connect(str(db))  # the library leaves clusters as `dedup run` does: take them away
    con.execute("drop table clusters").fetchall()
    con.close()
    result = CliRunner().invoke(app, ["report", str(db), "--output", str(tmp_path / "r.html")])
    assert result.exit_code == 1
    assert "no clusters table" in result.stderr and "dedup clusters" in result.stderr


def test_side_by_side_marks_exactly_what_differs():
    left, right = side_by_side("the quick brown fox", "the quick red fox")
    assert "".join(s.text for s in left) == "the quick brown fox"
    assert "".join(s.text for s in right) == "the quick red fox"
    assert [s.text for s in left if s.changed] == ["brown "]
    assert [s.text for s in right if s.changed] == ["red "]
    same_left, same_right = side_by_side("same text", "same text")
    assert not any(s.changed for s in same_left + same_right)


def test_shared_text_is_what_both_texts_hold():
    a = "HEADER licence text shared by all files. unique words of a here"
    b = "HEADER licence text shared by all files. other words of b there"
    shared = shared_text(a, b)
    assert shared.startswith("HEADER licence text shared by all files.")
    assert "unique" not in shared and "other" not in shared


def test_cluster_sizes_fall_in_power_of_two_bins_when_many():
    assert size_bins([(1, 5), (2, 3)]) == [("1", 5), ("2", 3)]
    many = [(size, 1) for size in range(1, 60)]
    bins = dict(size_bins(many, most=40))
    assert bins["1"] == 1 and bins["2"] == 1 and bins["3-4"] == 2 and bins["33-64"] == 27
    assert sum(bins.values()) == 59


def test_the_report_counts_a_skipped_input_with_its_reason(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("the quick brown fox jumps over the lazy dog", encoding="utf-8")
    (folder / "b.bin").write_bytes(b"\x00binary")
    db = tmp_path / "run.duckdb"
    invoke("run", folder, "--db", db, "-q")
    page = report(db, tmp_path / "report.html")
    text = " ".join(" ".join(parse(page).text).split())
    assert "2 read = 1 processed + 0 empty + 1 skipped" in text
    reason = rows(db, "select reason from skipped")[0][0]
    assert re.sub(r"\s+", " ", reason) in text


@pytest.mark.parametrize("method", ["exact", "signature"])
def test_runs_of_every_method_report(tmp_path, method):
    db = clough_db(tmp_path, "--method", method, "--threshold", "0.5")
    page = report(db, tmp_path / "report.html")
    assert f"This run used --method {method}: it has no LSH buckets." in page
    pairs = rows(db, "select doc_id_a, doc_id_b from pairs order by jaccard, doc_id_a limit 1")
    ids = {attrs.get("id") for _, attrs in parse(page).tags}
    assert f"pair-{pairs[0][0]}-{pairs[0][1]}" in ids


def test_an_index_grown_by_add_reports_its_first_run_and_the_add(tmp_path):
    db = clough_db(tmp_path)
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "copy.txt").write_text((REPO / "data" / "clough" / "orig_taska.txt").read_text(encoding="latin-1"))
    invoke("add", db, extra, "-q")
    page = report(db, tmp_path / "report.html")
    text = " ".join(" ".join(parse(page).text).split())
    assert "100 read = 100 processed + 0 empty + 0 skipped" in text  # the run that built the index
    assert "1 document added with dedup add" in text
    assert "101 documents" in text


def test_the_page_says_the_rule_the_riskiest_removals_and_flags_a_large_component(tmp_path):
    """A chain of 120 lines (each a pair of its neighbours only): one component, 60 kept by the
    verified rule where one per component keeps 1. The page names the rule, lists the drops least
    similar to their survivor first, and flags the component; under --resolve components the
    drops that no pair justifies come first, as "no pair"."""
    import random

    from indexing import make_index

    rng = random.Random(3)
    words = [f"w{rng.randrange(10**9):09d}" for _ in range(140)]
    docs = {f"d{i:03d}": " ".join(words[i : i + 20]) for i in range(120)}
    options = ("--shingle-type", "word", "-k", "5", "--threshold", "0.8")
    db = make_index(tmp_path, docs, "chain", *options)
    page = report(db, tmp_path / "verified.html")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Survivors by the verified rule (--keep first)" in text
    assert "Keeping one document per cluster would drop 119 documents; this rule drops 60: 59 documents" in text
    assert "120 documents, 60 kept, survivor d000" in text
    assert "A large component: keeping one document per cluster would drop 119 of its documents" in text
    assert re.search(r"dropped kept in its place Jaccard cluster d001 d000 0\.8\d{3} 120", text)
    invoke("clusters", db, "--resolve", "components")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", report(db, tmp_path / "components.html")))
    assert "Survivors by the components rule (--keep first)" in text
    assert re.search(r"dropped kept in its place Jaccard cluster d002 d000 no pair 120", text)


def test_long_ids_are_cut_on_the_page_and_a_data_file_is_not_replaced(tmp_path):
    """Two ids of 1 MB made a 13.7 MB page; `report -o pairs.parquet` replaced the Parquet file with
    HTML. Ids are cut to 200 characters on the page; the report's name must be .html (or -)."""
    import dedup

    text = "the quick brown fox jumps over the lazy dog"
    ids = ["a" * 1_000_000, "b" * 1_000_000]
    db = tmp_path / "index.duckdb"
    dedup.run(documents=list(zip(ids, [text, text], strict=True)), db=db, threshold=0.5)
    page = report(db, tmp_path / "page.html")
    assert len(page.encode()) < 400_000 and "a" * 200 + "... (999,800 more characters)" in page
    data = tmp_path / "pairs.parquet"
    data.write_bytes(b"PAR1 not html")
    result = CliRunner().invoke(app, ["report", str(db), "-o", str(data)])
    assert result.exit_code == 2 and "the report is an HTML page: name it .html, not pairs.parquet" in result.stderr
    assert data.read_bytes() == b"PAR1 not html"


def test_report_sample_pairs_beyond_its_bound_is_a_usage_error(tmp_path: Path) -> None:
    db = tmp_path / "run.duckdb"
    assert CliRunner().invoke(app, ["run", str(REPO / "data" / "clough"), "--db", str(db), "-q"]).exit_code == 0
    result = CliRunner().invoke(app, ["report", str(db), "--sample-pairs", "100000000", "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "100000000" in result.stderr and "10000" in result.stderr
