"""The disk a run takes: the peak bytes of the files it writes for itself, sampled while it works,
and what its database keeps (the summary's `disk:` line)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import EngineError
from .hashing import BUCKET_BITS
from .wording import sized

SAMPLE_SECONDS = 0.05


def files_below(path: Path) -> set[str]:
    """A file, or every file below a folder, as real paths (a file under two watched paths once)."""
    try:
        if not path.is_dir():
            return {os.path.realpath(path)} if path.exists() else set()
    except OSError:
        return set()
    return {os.path.realpath(os.path.join(root, name)) for root, _, files in os.walk(path) for name in files}


def bytes_of(files: Iterable[str]) -> int:
    """The bytes the files take on disk now (allocated blocks); a file removed meanwhile takes none."""
    total = 0
    for file in files:
        try:
            total += os.stat(file).st_blocks * 512
        except OSError:
            pass  # removed while listed
    return total


class Watch:
    """The largest total of the watched paths' bytes, sampled on a thread every SAMPLE_SECONDS
    from start() to stop(); paths may be added while it runs (the engine's files, once open). The
    files already below a folder given here are not the run's, unless watched by name: they are not
    counted (a --temp-dir holding an earlier run's database made the disk line say 1,343 MB for a
    run of 740 MB)."""

    def __init__(self, paths: Iterable[Path] = ()) -> None:
        self.paths: list[Path] = list(dict.fromkeys(paths))
        self.before = set().union(*(files_below(path) for path in self.paths if path.is_dir()))
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="dedup-disk-watch", daemon=True)

    def watch(self, *paths: Path) -> None:
        self.paths = list(dict.fromkeys([*self.paths, *paths]))

    def sample(self) -> None:
        # the union of the paths' files: a run's database under --temp-dir is counted once
        files: set[str] = set()
        for path in list(self.paths):  # a file watched by name (the engine's) is the run's, though it was there
            files |= files_below(path) - self.before if path.is_dir() else files_below(path)
        self.peak = max(self.peak, bytes_of(files))

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            self.sample()

    def start(self) -> Watch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


@dataclass(frozen=True)
class DiskUse:
    """peak: the most bytes the run's own files took at once (its database, write-ahead log,
    DuckDB's spill, the spool of a large input), in `where`; kept: the bytes of the database it
    keeps (None without --db); text: the bytes of text read (None when its engine read them)."""

    peak: int
    where: str
    kept: int | None = None
    text: int | None = None


# The least a run's database takes, whatever the text (benchmarks/disk.py, results.md): per document
# and band a 48-bit bucket (hash scheme v5), random, that bitpacking stores in 6 bytes and nothing
# shrinks further (band_hashes measured 7.9 bytes a row with its doc_id and band); per byte of text
# the documents table's compressed text and norm (0.59-1.35 bytes measured on real and generated
# corpora; text that is mostly copies of a few lines compresses further).
BUCKET_BYTES = BUCKET_BITS // 8
TEXT_SHARE = 0.5


def least_room(text_bytes: int, documents: int, bands: int) -> int:
    """The bytes a run's database needs at least: its band hashes and its documents."""
    return documents * bands * BUCKET_BYTES + int(text_bytes * TEXT_SHARE)


def free_bytes(folder: Path) -> int:
    """The bytes free to an unprivileged writer on the disk of `folder` (or of its nearest existing parent)."""
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return shutil.disk_usage(folder).free


def check_room(folder: Path, text_bytes: int, documents: int, bands: int) -> None:
    """Refuse, before the stages, a run whose database cannot fit in `folder` (least_room): rather
    than fail with the disk full once most of the work is done."""
    need = least_room(text_bytes, documents, bands)
    free = free_bytes(folder)
    if free < need:
        raise EngineError(
            f"not enough disk in {folder}: the database of {documents:,} documents ({sized(text_bytes)} of text) "
            f"needs at least {sized(need)} there (their band hashes and texts), and {sized(free)} is free; "
            "give --temp-dir (or --db) a folder on a disk with room",
            out_of_space=True,
        )
