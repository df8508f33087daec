"""Names whose bytes are not UTF-8 (a Latin-1 file name, pasted into an argument): Python holds
such bytes as surrogate escapes, which Arrow and DuckDB cannot take; dedup shows them as \\xNN, as
Python's backslashreplace does, in document ids, recorded inputs and messages."""

from __future__ import annotations

import re

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
