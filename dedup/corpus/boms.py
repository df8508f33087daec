"""What a file's first bytes say it is, for both engines alike: binary (a NUL byte in the first
8000), or text that starts with a UTF-16 byte order mark (a file a Windows editor or PowerShell
saved as "Unicode"). dedup reads UTF-8 (and Latin-1 where bytes are not UTF-8), so a UTF-16 file has
NUL bytes and was told apart only as binary; it is now named for what it is, with the way to convert
it. Only a file that would be refused or skipped anyway is so named (a BOM and a NUL byte in the
first 8000 bytes): a Latin-1 text that happens to start with the bytes of `ÿþ` is read as before."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError

BINARY_SNIFF_BYTES = 8000  # like git: a NUL byte in the first 8000 bytes means binary
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # little-endian, big-endian (UTF-32's start so too)
# The reasons a text file in a folder is skipped for its first bytes, the same on both engines.
BINARY_SKIPPED = "binary file (NUL byte in the first 8000 bytes)"
UTF16_SKIPPED = "UTF-16 text (byte order mark): dedup reads UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8"


def is_utf16(head: bytes) -> bool:
    """Whether a file starting with `head` (its first BINARY_SNIFF_BYTES or more) is UTF-16 text."""
    return head.startswith(UTF16_BOMS) and b"\x00" in head[:BINARY_SNIFF_BYTES]


def refuse_utf16(path: Path | str, head: bytes) -> None:
    """A --lines file, a CSV or JSON lines table in UTF-16 is refused in one line that says how to convert it."""
    if is_utf16(head):
        raise InputError(
            f"{path} is UTF-16 text (it starts with a byte order mark); dedup reads UTF-8: convert it first, "
            "e.g. with iconv -f UTF-16 -t UTF-8"
        )
