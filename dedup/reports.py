"""What a run reports: each stage's rows and seconds, the run's summary and result, and the hooks
through which it tells its progress as it goes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pyarrow as pa

from .banding import COMPLETE_ENOUGH
from .disk import DiskUse

if TYPE_CHECKING:
    from .engines import Engine
    from .recall import Audit


@dataclass
class StageReport:
    name: str
    rows: int
    seconds: float
    reused: bool = False  # finished by an earlier run with the same inputs and options
    counts: str | None = None  # the run's count that its rows are (the stage's `counts:` header)


@dataclass(frozen=True)
class MemoryUse:
    """peak: the most memory this process held (its resident set, Python's and DuckDB's); limit:
    the engine's limit as it says it (None: it says none); given: the --memory-limit it is a share
    of (None: not given)."""

    peak: int
    limit: str | None
    given: str | None


def peak_memory() -> int:
    """This process's largest resident set so far, in bytes."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB on Linux


@dataclass
class Summary:
    read: int = 0
    processed: int = 0
    empty: int = 0
    skipped: int = 0
    latin1: int = 0
    shingles: int = 0
    candidates: int = 0
    pairs: int = 0
    copy_groups: int = 0  # groups of two or more documents with the same normalized text
    copies: int = 0  # the documents in them
    distinct_texts: int = 0  # distinct normalized texts among the documents with shingles
    copy_pairs: int = 0  # the pairs inside the groups of copies (all pairs: Jaccard 1)
    bands: int = 0
    rows: int = 0
    detection_probability: float = 0.0
    expected_missed: float | None = None  # LSH: the pairs it missed, estimated from those it found
    notes: list[str] = field(default_factory=list)
    stages: list[StageReport] = field(default_factory=list)
    disk: DiskUse | None = None  # the peak of the run's own files and what its database keeps
    memory: MemoryUse | None = None  # the process's peak and the engine's limit

    @property
    def complete(self) -> bool:
        """Whether the pair count can be stated as every pair >= threshold (P(found | J = t) >= 0.99)."""
        return self.detection_probability >= COMPLETE_ENOUGH

    @property
    def seconds(self) -> float:
        return sum(stage.seconds for stage in self.stages)

    def account(self, loaded: int, skipped: int, latin1: int) -> None:
        """The input account and pair counts, from the stage reports: read = processed + empty + skipped."""
        for report in self.stages:
            if report.counts is not None:
                setattr(self, report.counts, report.rows)
        self.skipped = skipped
        self.read = loaded + skipped
        self.empty = loaded - self.processed
        self.latin1 = latin1

    def counts(self) -> dict[str, int]:
        """The counts recorded in the runs table."""
        return {
            "read": self.read,
            "processed": self.processed,
            "empty": self.empty,
            "skipped": self.skipped,
            "latin1": self.latin1,
            "shingles": self.shingles,
            "candidates": self.candidates,
            "pairs": self.pairs,
        }


@dataclass
class RunResult:
    pairs: pa.Table | None  # None when the run streamed them to a file or stdout (execute's pairs_to)
    summary: Summary
    skipped: pa.Table
    dropped: int | None = None  # documents that the keep rule drops, when the run kept a database
    audit: Audit | None = None  # --audit: the recall measured on a sample
    listed: int | None = None  # pairs streamed to a file or stdout (execute's pairs_to), when they were


class Progress:
    """What a run tells as it goes; this one tells nothing (dedup.cli.summary.StageProgress shows it)."""

    def attach(self, engine: Engine) -> None:
        """The run's engine, whose running statement's progress can be polled."""

    def start(self, stage: str) -> None:
        """A stage starts."""

    def finish(self, report: StageReport) -> None:
        """A stage finished (or was reused): its rows and seconds."""
