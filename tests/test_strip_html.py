"""--strip-html: HTML's text is shingled, not its tags; the option is recorded and changes the fingerprint."""

from __future__ import annotations

import json

from indexing import invoke, rows, write_jsonl

from dedup.cleanup import html_to_text

REVIEW = "A fine film.<br /><br />The actors &amp; the music were great, and I would watch it again."


def test_html_to_text_drops_tags_scripts_and_decodes_entities():
    assert html_to_text("a<br/>b &lt;c&gt; &#233;<script>var x = 1;</script><b>d</b>") == "a b <c> é   d "
    assert html_to_text("no markup at all") == "no markup at all"


def test_strip_html_changes_what_is_shingled_and_is_recorded(tmp_path):
    table = write_jsonl(tmp_path / "reviews.jsonl", {"r1": REVIEW, "r2": REVIEW.replace("<br /><br />", " ")})
    db = tmp_path / "run.duckdb"
    invoke("run", table, "--db", db, "-q", "--threshold", "0.99")
    assert rows(db, "select count(*) from pairs") == [(0,)]  # the tags make them differ
    assert any("br" in norm for (norm,) in rows(db, "select norm from documents"))
    result = invoke("run", table, "--db", db, "--threshold", "0.99", "--strip-html")
    assert "reused" not in result.stderr  # the option changes every stage from the documents on
    assert rows(db, "select id_a, id_b, jaccard from pairs") == [("r1", "r2", 1.0)]
    assert not any("br" in norm for (norm,) in rows(db, "select norm from documents"))
    options = json.loads(rows(db, "select options from runs order by run_id desc limit 1")[0][0])
    assert options["strip_html"] is True
    # the index cleans what is added and queried the same way
    invoke("add", db, write_jsonl(tmp_path / "more.jsonl", {"r3": "<p>" + REVIEW + "</p>"}), "-q")
    assert rows(db, "select count(*) from pairs") == [(3,)]
    similar = invoke("query", db, "--text", "<i>" + REVIEW + "</i>", "--format", "csv").stdout
    assert similar.count("1.0") == 3
