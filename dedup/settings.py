"""Run options, validated once, before anything is read."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .errors import UsageError
from .hashing import DEFAULT_SEED
from .params import Banding, choose_banding

ShingleType = Literal["char", "word"]
InputFormat = Literal["auto", "files", "lines", "table"]
# DuckDB's memory_limit syntax: a number and a unit (500MB, 2GiB, 1.5 GB).
MEMORY_LIMIT = re.compile(r"^\s*\d+(\.\d+)?\s*(b|bytes|kb|mb|gb|tb|kib|mib|gib|tib)\s*$", re.IGNORECASE)
Method = Literal["lsh", "signature", "exact"]
METHODS = ("lsh", "signature", "exact")


@dataclass(frozen=True)
class Settings:
    inputs: tuple[Path, ...]
    threshold: float = 0.8
    shingle_type: ShingleType = "char"
    shingle_size: int = 9
    num_perm: int = 128
    seed: int = DEFAULT_SEED
    bands: int | None = None
    rows: int | None = None
    lines: bool = False
    id_column: str | None = None
    text_column: str = "text"
    include_hidden: bool = False
    strip_html: bool = False
    delimiter: str | None = None
    db: Path | None = None
    threads: int | None = None
    memory_limit: str | None = None
    temp_dir: Path | None = None
    method: Method = "lsh"
    replace_documents: bool = False  # a run may drop documents of an existing --db that the inputs lack
    banding: Banding = field(init=False)

    def __post_init__(self) -> None:
        if not self.inputs:
            raise UsageError("give at least one input (a folder, a text file or a table)")
        if not 0.0 <= self.threshold <= 1.0:
            raise UsageError(f"--threshold must be between 0 and 1, got {self.threshold}")
        if self.shingle_type not in ("char", "word"):
            raise UsageError(f"--shingle-type must be char or word, got {self.shingle_type!r}")
        if self.method not in METHODS:
            raise UsageError(f"--method must be lsh, signature or exact, got {self.method!r}")
        if self.method == "exact" and self.threshold <= 0.0:
            raise UsageError("--method exact needs --threshold above 0 (at 0 every pair of documents qualifies)")
        if self.shingle_size < 1:
            raise UsageError(f"--shingle-size must be at least 1, got {self.shingle_size}")
        if self.num_perm < 1:
            raise UsageError(f"--num-perm must be at least 1, got {self.num_perm}")
        if self.threads is not None and self.threads < 1:
            raise UsageError(f"--threads must be at least 1, got {self.threads}")
        if self.memory_limit is not None and not MEMORY_LIMIT.match(self.memory_limit):
            raise UsageError(f"--memory-limit must be a size such as 500MB or 2GB, got {self.memory_limit!r}")
        if self.temp_dir is not None and self.temp_dir.exists() and not self.temp_dir.is_dir():
            raise UsageError(f"--temp-dir is not a folder: {self.temp_dir}")
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed must be between 0 and 2^63-1, got {self.seed}")
        object.__setattr__(self, "banding", self._banding())

    def _banding(self) -> Banding:
        bands, rows, num_perm = self.bands, self.rows, self.num_perm
        for name, value in (("--bands", bands), ("--rows", rows)):
            if value is not None and value < 1:
                raise UsageError(f"{name} must be at least 1, got {value}")
        if bands is None and rows is None:
            return choose_banding(self.threshold, num_perm)
        if bands is None or rows is None:
            given = bands if bands is not None else rows
            assert given is not None
            if num_perm % given:
                raise UsageError(f"--num-perm {num_perm} is not divisible by {given}; give both --bands and --rows")
            other = num_perm // given
            bands, rows = (given, other) if bands is not None else (other, given)
        if bands * rows != num_perm:
            raise UsageError(f"--bands {bands} x --rows {rows} = {bands * rows}, but --num-perm is {num_perm}")
        return Banding(bands=bands, rows=rows)

    def options(self) -> dict[str, object]:
        """The options that define the result, as recorded in the runs table."""
        return {
            "threshold": self.threshold,
            "shingle_type": self.shingle_type,
            "shingle_size": self.shingle_size,
            "num_perm": self.num_perm,
            "seed": self.seed,
            "bands": self.banding.bands,
            "rows": self.banding.rows,
            "lines": self.lines,
            "id_column": self.id_column,
            "text_column": self.text_column,
            "include_hidden": self.include_hidden,
            "strip_html": self.strip_html,
            "delimiter": self.delimiter,
            "method": self.method,
        }

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
