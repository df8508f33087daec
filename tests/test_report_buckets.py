"""The report's boilerplate (issue 23): buckets of one template in several bands, with a few near
copies more in some, are one row; the log axes' tick labels fit their margin at any count."""

from __future__ import annotations

import duckdb

from dedup.engines.duckdb import DuckDBEngine
from dedup.html_report.charts import jaccard_chart, tick_label
from dedup.html_report.data import fetch


def test_buckets_of_one_template_in_several_bands_are_one_row(tmp_path) -> None:
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    template = "add your description here"
    texts = [template] * 6 + ["add your description here!", "add your description here!!", "other text", "more"]
    con.execute("create table documents (doc_id bigint, id varchar, text varchar, norm varchar)")
    con.executemany(
        "insert into documents values (?, ?, ?, ?)", [(i + 1, f"d{i + 1}", t, t) for i, t in enumerate(texts)]
    )
    # band 0: the 6 copies; band 1: the copies and the 2 near copies; band 2: the copies again
    rows = [(d, 0, 100) for d in range(1, 7)] + [(d, 1, 200) for d in range(1, 9)] + [(d, 2, 300) for d in range(1, 7)]
    rows += [(9, 0, 400), (10, 0, 400)]  # an unrelated pair sharing one bucket
    con.execute("create table band_hashes (doc_id bigint, band bigint, bucket ubigint)")
    con.executemany("insert into band_hashes values (?, ?, ?)", rows)
    values = {"top": 10, "scan": 100, "members": 12, "max_chars": 100}
    buckets = fetch(DuckDBEngine(con), "report_largest_buckets", values)
    con.close()
    assert [(b["size"], b["bands"]) for b in buckets] == [(8, [0, 1, 2]), (2, [0])]
    assert buckets[0]["member_ids"] == [f"d{i}" for i in range(1, 9)]


def test_tick_labels_are_short_at_any_power_of_ten() -> None:
    assert [tick_label(10**i) for i in range(10)] == ["1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G"]
    figure = jaccard_chart([(0.0, 0.02, 250_000_000), (0.8, 0.82, 3)], 0.8, None)
    labels = [t.text for t in figure.texts if t.anchor == "end"]
    assert labels[-2:] == ["100M", "1G"] and max(len(label) for label in labels) <= 4
