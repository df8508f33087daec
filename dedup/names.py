"""What a file name can hold. Bytes that are not UTF-8 (a Latin-1 file name, pasted into an
argument): Python holds them as surrogate escapes, which Arrow and DuckDB cannot take; dedup shows
them as \\xNN, as Python's backslashreplace does, in document ids, recorded inputs and messages.
And a length: a name longer than a file system holds is refused before any work; so is a loop of
symbolic links."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from .errors import UsageError

ESCAPED_BYTE = re.compile(r"\\x([89a-f][0-9a-f])")


def is_utf8(text: str) -> bool:
    """Whether the text holds no surrogate escape (no byte that was not UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped(text: str) -> str:
    """The text with the bytes that are not UTF-8 written \\xNN."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def unescaped(text: str) -> str:
    """What `escaped` wrote as `text`: its \\xNN of bytes 0x80-0xff back to those bytes."""
    return ESCAPED_BYTE.sub(lambda match: chr(0xDC00 + int(match.group(1), 16)), text)


# The longest file name most file systems hold, in bytes (ext4, XFS, APFS, NTFS in UTF-16 units).
NAME_MAX = 255


def check_name_length(path: Path, what: str, room: int = 0) -> None:
    """Refuse a name longer than a file system holds (`room` bytes kept for what is added to it, as
    DuckDB adds `.wal`), before the run: the file system would refuse it (ENAMETOOLONG) only when
    the file is written, at the end."""
    size = len(os.fsencode(path.name))
    if size + room > NAME_MAX:
        most = NAME_MAX - room
        raise UsageError(f"{what} is {size} bytes long; a file name holds at most {most}: give a shorter name")


def check_not_a_loop(path: Path, what: str) -> None:
    """Refuse in one line a path that is a loop of symbolic links (a link to itself, or a cycle):
    it names no file, and Path.resolve raised RuntimeError on it (a traceback)."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise UsageError(f"{what} {path} is a loop of symbolic links: name a file or folder") from None
