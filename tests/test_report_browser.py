"""The report as a person sees it: opened from disk in a real headless Chromium.

Checks: no console errors and no request beyond the file itself, the charts and the
side-by-side pairs render (screenshots of known size with non-blank regions, and the DOM holds
the expected pair ids), and a hostile document is shown as text, never run.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from browser import chromium, missing_browser
from indexing import invoke, rows
from PIL import Image
from reporting import HOSTILE_TEXT, clough_db, hostile_db

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 1200, 900
KEPT_BAR = (0x2F, 0x6F, 0xB3)
REJECTED_BAR = (0xC9, 0x82, 0x2B)
S_CURVE = (0x2A, 0x9D, 0x55)


@pytest.fixture(scope="module")
def browser():
    reason = missing_browser()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}: CI must run the browser tests (.ci/run installs Chromium)")
        pytest.skip(reason)
    with chromium() as running:
        yield running


class Opened:
    """A report open in a page, with everything the page logged and requested."""

    def __init__(self, browser, report: Path) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.url = report.resolve().as_uri()
        self.page.goto(self.url, wait_until="load")

    def image(self, selector: str | None = None) -> Image.Image:
        shot = self.page.locator(selector).screenshot() if selector else self.page.screenshot()
        return Image.open(io.BytesIO(shot)).convert("RGB")


def colours(image: Image.Image) -> list[tuple[int, tuple[int, int, int]]]:
    """(pixels, colour) for every colour of the image."""
    found = image.getcolors(maxcolors=image.width * image.height)
    assert found is not None
    return found


def share_not_background(image: Image.Image) -> float:
    """The share of pixels that are neither white nor the page's background grey."""
    background = {(255, 255, 255), (0xF6, 0xF7, 0xF9)}
    return sum(n for n, colour in colours(image) if colour not in background) / (image.width * image.height)


def has_colour(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12, least: int = 20) -> bool:
    """At least `least` pixels within `tolerance` of `colour` in every channel."""
    near = [n for n, c in colours(image) if all(abs(x - y) <= tolerance for x, y in zip(c, colour, strict=True))]
    return sum(near) >= least


@pytest.fixture(scope="module")
def clough(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    db = clough_db(tmp, "--threshold", "0.5")
    report = tmp / "report.html"
    invoke("report", db, "--output", report)
    return db, report


def test_the_report_loads_without_errors_or_requests(browser, clough):
    _, report = clough
    opened = Opened(browser, report)
    assert opened.errors == []
    assert opened.requests == [opened.url]  # the file itself and nothing else
    assert opened.page.title().startswith("dedup report")
    shot = opened.image()
    assert shot.size == (WIDTH, HEIGHT)
    assert share_not_background(shot) > 0.02  # text and cards, not a blank page


def test_the_charts_render(browser, clough):
    _, report = clough
    opened = Opened(browser, report)
    for selector in ("#jaccard-chart", "#cluster-chart"):
        box = opened.page.locator(selector).bounding_box()
        assert box is not None and box["width"] > 400 and box["height"] > 200
    jaccard = opened.image("#jaccard-chart")
    assert share_not_background(jaccard) > 0.03
    assert has_colour(jaccard, KEPT_BAR) and has_colour(jaccard, REJECTED_BAR) and has_colour(jaccard, S_CURVE)
    bars = opened.page.locator("#jaccard-chart rect.bar")
    assert bars.count() > 5
    clusters = opened.image("#cluster-chart")
    assert share_not_background(clusters) > 0.03 and has_colour(clusters, KEPT_BAR)


def test_pairs_render_side_by_side_with_their_ids(browser, clough):
    db, report = clough
    opened = Opened(browser, report)
    anchors = opened.page.eval_on_selector_all("article.pair", "nodes => nodes.map(n => n.id)")
    assert len(anchors) == len(set(anchors)) > 2
    # the sample starts with the nearest pair on each side of the threshold
    above = rows(db, "select doc_id_a, doc_id_b from verified where jaccard >= 0.5 order by jaccard, 1, 2 limit 1")
    below = rows(db, "select doc_id_a, doc_id_b from verified where jaccard < 0.5 order by jaccard desc, 1, 2 limit 1")
    sample = [anchor for anchor in anchors if anchor.startswith("pair-")]
    assert {f"pair-{a}-{b}" for a, b in above + below} == set(sample[:2])
    # each of the largest clusters shows one of its pairs
    clusters = rows(
        db, "select distinct cluster_id, cluster_size from clusters where cluster_size > 1 order by 2 desc, 1"
    )
    for cluster_id, _ in clusters[:10]:
        assert any(anchor.startswith(f"cluster-{cluster_id}-pair-") for anchor in anchors)
    a, b = above[0]
    first = opened.page.locator(f"#pair-{a}-{b}")
    first.scroll_into_view_if_needed()
    left, right = (first.locator(".side").nth(i).bounding_box() for i in range(2))
    assert left is not None and right is not None
    assert left["x"] + left["width"] <= right["x"] and abs(left["y"] - right["y"]) < 2  # side by side
    assert left["width"] > 300 and left["height"] > 60
    shot = opened.image(f"#pair-{a}-{b}")
    assert share_not_background(shot) > 0.05
    assert has_colour(shot, (0xFF, 0xD6, 0xD1), tolerance=6)  # a highlighted differing span
    ids = rows(db, f"select id from documents where doc_id in ({a}, {b}) order by doc_id")
    assert first.get_attribute("data-id-a") == ids[0][0] and first.get_attribute("data-id-b") == ids[1][0]


def test_a_hostile_document_is_shown_as_text(browser, tmp_path):
    db = hostile_db(tmp_path)
    report = tmp_path / "hostile.html"
    invoke("report", db, "--output", report)
    opened = Opened(browser, report)
    assert opened.errors == []
    assert opened.requests == [opened.url]  # the <img src=x> was never requested
    page = opened.page
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.title().startswith("dedup report")
    assert page.locator("script").count() == 0 and page.locator("img").count() == 0
    assert page.locator("blink").count() == 0
    shown = page.locator("article.pair .side.a .text").first.inner_text()
    assert "<script>document.title = 'pwned'" in shown and "<img src=x onerror=" in shown
    assert HOSTILE_TEXT.split("<img")[0].strip() in page.locator("body").inner_text()


def test_log_axis_labels_fit_and_clear_the_axis_title_at_hundreds_of_millions(browser, clough, tmp_path):
    """At 10M and 100M candidates per bin the tick labels were clipped (`0,000,000`) and the axis
    title overlapped them; every label must lie inside the chart, left of nothing it hides."""
    import dataclasses

    from dedup.engines import open_engine
    from dedup.html_report.data import gather
    from dedup.html_report.page import write

    db, _ = clough
    engine = open_engine(db, read_only=True)
    try:
        data = gather(engine, db, top=10, sample_pairs=5)
    finally:
        engine.close()
    huge = [(low, high, count * 40_000_000 + 1) for low, high, count in data.histogram]
    report = tmp_path / "huge.html"
    write(dataclasses.replace(data, histogram=huge), report)
    opened = Opened(browser, report)
    boxes = opened.page.eval_on_selector_all(
        "#jaccard-chart text",
        """nodes => nodes.map(n => { const b = n.getBoundingClientRect();
            const s = n.ownerSVGElement.getBoundingClientRect();
            return {text: n.textContent, cls: n.getAttribute('class') || '', x: b.left - s.left, w: b.width}; })""",
    )
    ticks = [b for b in boxes if b["text"] in ("1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G")]
    title = next(b for b in boxes if "vertical" in b["cls"] and "right" not in b["cls"])
    assert any(b["text"] == "1G" for b in ticks)
    for tick in ticks:
        assert tick["x"] >= 0, tick  # inside the SVG: not clipped
        assert tick["x"] >= title["x"] + title["w"] + 2, (tick, title)  # clear of the rotated title
