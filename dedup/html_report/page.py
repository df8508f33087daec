"""The report page: ReportData rendered with a Jinja2 template that escapes every value."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from . import charts
from .data import MAX_CHARS, MEMBERS, NEAR, Pair, ReportData
from .diff import Span, shared_text, side_by_side

SIZES_LISTED = 12  # rows of the cluster size table (the chart shows every size)
LARGE_COMPONENT = 100  # a component this large is flagged: chains join unrelated documents there
BANDS_LISTED = 8


@dataclass(frozen=True)
class PairView:
    pair: Pair
    spans_a: list[Span]
    spans_b: list[Span]
    anchor: str  # the element id: unique on the page, so a pair shown twice gets two


def pair_view(pair: Pair, prefix: str = "") -> PairView:
    spans_a, spans_b = side_by_side(pair.text_a, pair.text_b)
    return PairView(pair, spans_a, spans_b, prefix + pair.anchor)


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("dedup.html_report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


def bands_label(bands: list[int]) -> str:
    shown = ", ".join(str(band) for band in bands[:BANDS_LISTED])
    more = f" and {len(bands) - BANDS_LISTED} more" if len(bands) > BANDS_LISTED else ""
    return f"{len(bands)} band{'s' if len(bands) != 1 else ''}: {shown}{more}"


def render(data: ReportData) -> str:
    totals = data.totals
    threshold = data.threshold
    banding = data.banding
    lsh = data.method == "lsh"
    found = totals["pairs"]
    missed = data.missed
    recall = found / (found + missed) if missed is not None and found + missed > 0 else 1.0
    clusters = [
        {
            "cluster_id": c.cluster_id,
            "size": c.size,
            "kept": c.kept,
            "large": c.size >= LARGE_COMPONENT,
            "survivor_id": c.survivor_id,
            "member_ids": c.member_ids,
            "view": pair_view(c.pair, f"cluster-{c.cluster_id}-") if c.pair is not None else None,
        }
        for c in data.clusters
    ]
    buckets = [
        {
            "size": b.size,
            "bands_label": bands_label(b.bands),
            "member_ids": b.member_ids,
            "shared": shared_text(b.text_a, b.text_b),
        }
        for b in data.buckets
    ]
    options = [(key, "" if value is None else str(value)) for key, value in data.options.items()]
    seconds = [stage.seconds for stage in data.stages if stage.seconds is not None]
    template = environment().get_template("report.html.j2")
    return template.render(
        db_name=data.db.name,
        db_path=str(data.db.resolve()),
        run=data.base,
        later_runs=data.later_runs,
        account=data.account,
        skipped=data.skipped,
        totals=totals,
        options=options,
        stages=data.stages,
        total_seconds=sum(seconds),
        threshold=threshold,
        banding=banding,
        method=data.method,
        jaccard_chart=charts.jaccard_chart(data.histogram, threshold, banding if lsh else None),
        candidates_per_pair=f"{totals['candidates'] / found:.2f}" if found else "–",
        near_low=max(threshold - NEAR, 0.0),
        near_below=data.near_below,
        missed=missed,
        recall=recall,
        audit=data.base.counts.get("audit"),
        detection=banding.probability(threshold),
        clusters=clusters,
        rule=data.rule,
        risky=data.risky,
        one_per_component=totals["clustered_documents"] - totals["clusters"],
        sample=[pair_view(pair) for pair in data.pair_sample],
        buckets=buckets,
        left_out=data.left_out,
        max_shingle_df=data.options.get("max_shingle_df"),
        members=MEMBERS,
        cluster_chart=charts.cluster_size_chart(data.cluster_sizes),
        cluster_sizes_shown=data.cluster_sizes[:SIZES_LISTED],
        cluster_sizes_more=max(len(data.cluster_sizes) - SIZES_LISTED, 0),
        max_chars=MAX_CHARS,
    )


def write(data: ReportData, output: Path) -> int:
    """Write the page (UTF-8) to `output`, `-` for standard output; return its size in bytes."""
    from ..output import replacing
    from ..settings import STDOUT

    encoded = render(data).encode("utf-8")
    if output == STDOUT:
        sys.stdout.buffer.write(encoded)
        return len(encoded)
    with replacing(output) as target:
        target.write_bytes(encoded)
    return len(encoded)
