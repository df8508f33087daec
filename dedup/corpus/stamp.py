"""What an input held when a run began, to tell whether it changed before `--write-deduplicated`
reads it a second time.

The deduplicated copy is written from the input as it is after the run, with the run's dropped
ids: if a line was inserted meanwhile, every line number after it names another line, and the
copy would drop unique lines and keep duplicates. So the input is stamped (every file's size,
modification time, inode and sha256 digest) before the run reads it and again once the copy is
written; any difference refuses the copy, which is then removed.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .walk import files_below


@dataclass(frozen=True)
class FileStamp:
    path: str
    size: int
    mtime_ns: int
    inode: int
    digest: str


def stamp_input(source: Path) -> tuple[FileStamp, ...]:
    """Every regular file of `source` (a file, or everything below a folder, hidden files too),
    with its digest; a file that cannot be read is stamped by its error."""
    if not source.is_dir():
        return (_stamp(source, source.name),)
    stamps = []
    for path in files_below(source):
        stamps.append(_stamp(path, path.relative_to(source).as_posix()))
    return tuple(sorted(stamps, key=lambda s: s.path))


def _stamp(path: Path, name: str) -> FileStamp:
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            return FileStamp(name, -1, 0, 0, "not a regular file")
        digest = hashlib.sha256()
        with path.open("rb") as stream:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
        return FileStamp(name, status.st_size, status.st_mtime_ns, status.st_ino, digest.hexdigest())
    except OSError as error:
        return FileStamp(name, -1, 0, 0, f"unreadable: {error.strerror or os.strerror(error.errno or 0)}")


def changed_files(before: tuple[FileStamp, ...], after: tuple[FileStamp, ...]) -> list[str]:
    """The names of the files added, removed or changed between two stamps."""
    old = {s.path: s for s in before}
    new = {s.path: s for s in after}
    return sorted(name for name in old.keys() | new.keys() if old.get(name) != new.get(name))
