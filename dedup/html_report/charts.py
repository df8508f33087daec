"""Charts as inline SVG: the geometry here, the markup in the template (so every label is escaped).

A chart is a Figure of plain shapes (bars, lines, a polyline, texts) in SVG user units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..banding import Banding


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    css: str


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str = "middle"
    css: str = "tick"


@dataclass
class Figure:
    name: str  # the svg's id
    title: str  # its accessible name
    width: int
    height: int
    rects: list[Rect] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    curves: list[tuple[str, str]] = field(default_factory=list)  # (points, css)
    texts: list[Text] = field(default_factory=list)


@dataclass(frozen=True)
class Frame:
    """The plot area inside the margins."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top


def log_scale(largest: int) -> tuple[float, list[int]]:
    """The top of a log axis (a power of ten >= largest, at least 10) and its ticks 1, 10, 100, ..."""
    top = 10 ** max(1, math.ceil(math.log10(max(largest, 1))))
    return top, [10**i for i in range(round(math.log10(top)) + 1)]


def log_y(count: float, top: float, frame: Frame) -> float:
    """y of a count on a log axis that starts at 0.5, so a bar of one is visible."""
    low = math.log10(0.5)
    return frame.bottom - (math.log10(max(count, 0.5)) - low) / (math.log10(top) - low) * frame.height


def count_label(n: int) -> str:
    return f"{n:,}"


def tick_label(n: int) -> str:
    """A power of ten on a log axis, short enough for the left margin at any size: 1, 10, 100, 1k,
    10k, 100k, 1M, ... (100,000,000 in full was clipped to `0,000,000`)."""
    for power, suffix in ((12, "T"), (9, "G"), (6, "M"), (3, "k")):
        if n >= 10**power and n % 10**power == 0:
            return f"{n // 10**power}{suffix}"
    return str(n)


def log_axis(figure: Figure, frame: Frame, top: float, ticks: list[int], label: str) -> None:
    for tick in ticks:
        y = log_y(tick, top, frame)
        figure.lines.append(Line(frame.left - 4, y, frame.right, y, "grid"))
        figure.texts.append(Text(frame.left - 7, y + 4, tick_label(tick), "end"))
    figure.texts.append(Text(14, frame.top + frame.height / 2, label, "middle", "axis-label vertical"))


def jaccard_chart(
    histogram: list[tuple[float, float, int]], threshold: float, banding: Banding | None, steps: int = 200
) -> Figure:
    """Candidates per Jaccard bin (log scale; kept bins in one colour, rejected in another), the
    S-curve P(candidate | J) of the banding over it on its own 0-1 axis, and the threshold."""
    figure = Figure("jaccard-chart", "Exact Jaccard of verified candidates, with the S-curve", 1100, 340)
    frame = Frame(left=64, top=28, right=1036, bottom=290)
    top, ticks = log_scale(max((count for _, _, count in histogram), default=1))
    log_axis(figure, frame, top, ticks, "candidates (log scale)")

    def x(similarity: float) -> float:
        return frame.left + min(max(similarity, 0.0), 1.0) * frame.width

    for low, high, count in histogram:
        kept = low >= threshold - 1e-12
        y = log_y(count, top, frame)
        figure.rects.append(
            Rect(
                x(low) + 0.5,
                y,
                max(x(high) - x(low) - 1, 0.5),
                frame.bottom - y,
                "bar kept" if kept else "bar rejected",
                f"Jaccard {max(low, 0):.2f}-{min(high, 1):.2f}: {count_label(count)} candidates"
                + (" (kept)" if kept else " (below the threshold)"),
            )
        )
    for i in range(11):
        s = i / 10
        figure.lines.append(Line(x(s), frame.bottom, x(s), frame.bottom + 4, "axis"))
        figure.texts.append(Text(x(s), frame.bottom + 17, f"{s:.1f}"))
    figure.texts.append(
        Text(frame.left + frame.width / 2, frame.bottom + 38, "exact Jaccard similarity", css="axis-label")
    )
    figure.lines.append(Line(frame.left, frame.bottom, frame.right, frame.bottom, "axis"))
    if banding is not None:
        points = " ".join(
            f"{x(i / steps):.1f},{frame.bottom - banding.probability(i / steps) * frame.height:.1f}"
            for i in range(steps + 1)
        )
        figure.curves.append((points, "s-curve"))
        for p in (0.0, 0.5, 1.0):
            y = frame.bottom - p * frame.height
            figure.lines.append(Line(frame.right, y, frame.right + 4, y, "axis"))
            figure.texts.append(Text(frame.right + 7, y + 4, f"{p:.1f}", "start"))
        figure.texts.append(
            Text(
                frame.right + 46,
                frame.top + frame.height / 2,
                "P(candidate | J)",
                "middle",
                "axis-label vertical-right",
            )
        )
    figure.lines.append(Line(x(threshold), frame.top - 6, x(threshold), frame.bottom, "threshold"))
    figure.texts.append(Text(x(threshold), frame.top - 12, f"threshold {threshold:g}", "middle", "threshold-label"))
    return figure


def size_bins(sizes: list[tuple[int, int]], most: int = 40) -> list[tuple[str, int]]:
    """(label, clusters): one bar per size, or power-of-two ranges of sizes when there are many."""
    if len(sizes) <= most:
        return [(str(size), count) for size, count in sizes]
    bins: dict[int, int] = {}
    for size, count in sizes:
        power = max(size - 1, 0).bit_length()  # 1 -> 0, 2 -> 1, 3-4 -> 2, 5-8 -> 3, ...
        bins[power] = bins.get(power, 0) + count
    labels = []
    for power in sorted(bins):
        low, high = (2 ** (power - 1) + 1 if power else 1), 2**power
        labels.append((str(low) if low == high else f"{low}-{high}", bins[power]))
    return labels


def cluster_size_chart(sizes: list[tuple[int, int]]) -> Figure:
    """How many clusters there are of each size, on a log scale (size 1: documents kept alone)."""
    figure = Figure("cluster-chart", "Clusters per size, log scale", 1100, 290)
    frame = Frame(left=64, top=16, right=1084, bottom=240)
    bars = size_bins(sizes)
    top, ticks = log_scale(max((count for _, count in bars), default=1))
    log_axis(figure, frame, top, ticks, "clusters (log scale)")
    step = min(frame.width / max(len(bars), 1), 80.0)
    every = max(1, math.ceil(len(bars) / 20))  # at most about 20 labels
    for i, (label, count) in enumerate(bars):
        y = log_y(count, top, frame)
        x = frame.left + i * step
        css = "bar single" if label == "1" else "bar kept"
        figure.rects.append(
            Rect(x + step * 0.1, y, step * 0.8, frame.bottom - y, css, f"size {label}: {count_label(count)} clusters")
        )
        if i % every == 0:
            figure.texts.append(Text(x + step / 2, frame.bottom + 16, label))
    figure.lines.append(Line(frame.left, frame.bottom, frame.right, frame.bottom, "axis"))
    figure.texts.append(
        Text(frame.left + frame.width / 2, frame.bottom + 38, "cluster size (documents)", css="axis-label")
    )
    return figure
