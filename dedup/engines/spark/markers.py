"""The finished stages of a Spark work folder (the Checkpoints of dedup.records, for Spark).

A finished stage is a small JSON file in <work>/_stages/, written after the stage's tables are
complete (Parquet writes are not transactional) and deleted before the stage starts: a run killed
mid-stage leaves no mark, so the next run computes that stage again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ...statement import Statement
from .tables import split_tables


class WorkFolder(Protocol):
    """What the markers use of the Spark engine (dedup.engines.spark.engine.SparkEngine)."""

    work_dir: str
    session: Any

    def read_text(self, path: str) -> str | None: ...

    def write_text(self, path: str, text: str) -> None: ...

    def delete(self, path: str) -> None: ...

    def has_table(self, name: str) -> bool: ...

    def attach(self, name: str) -> None: ...


class StageMarkers:
    """The finished stages of a Spark work folder: <work>/_stages/<stage>.json."""

    def __init__(self, engine: WorkFolder) -> None:
        self.engine = engine

    def _marker(self, stage: str) -> str:
        return f"{self.engine.work_dir}/_stages/{stage}.json"

    def reuse(self, stage: str, fingerprint: str, statement: Statement, kept: bool = True) -> int | None:
        text = self.engine.read_text(self._marker(stage))
        recorded = json.loads(text) if text is not None else None
        if recorded is None or recorded["fingerprint"] != fingerprint:
            return None
        tables = [table for table, _ in split_tables(stage, statement.sql)]
        if not all(self.engine.has_table(table) for table in tables):
            return None
        for table in tables:
            self.engine.attach(table)
        return int(recorded["rows"])

    def start(self, stage: str) -> None:
        self.engine.delete(self._marker(stage))

    def forget(self, stages: Sequence[str]) -> None:
        for stage in stages:
            self.start(stage)

    def record(self, stage: str, fingerprint: str, options: Mapping[str, object], rows: int | None = None) -> int:
        rows = int(self.engine.session.table(stage).count()) if rows is None else rows
        self.engine.write_text(
            self._marker(stage), json.dumps({"stage": stage, "fingerprint": fingerprint, "rows": rows})
        )
        return rows

    def finish_run(self, counts: Mapping[str, object], seconds: dict[str, float]) -> None:
        pass  # a work folder keeps the stage tables and their markers, no runs table
