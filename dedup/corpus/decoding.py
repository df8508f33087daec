"""How a file's bytes become text, for both engines alike: UTF-8 (a leading byte order mark
dropped), else Latin-1, which maps every byte to one character; and what a file's first bytes say
it is: binary (a NUL byte in the first 8000), or text that starts with a UTF-16 byte order mark (a
file a Windows editor or PowerShell saved as "Unicode"). dedup reads UTF-8 and Latin-1, so a UTF-16
file has NUL bytes and was told apart only as binary; it is named for what it is, with the way to
convert it. Only a file that would be refused or skipped anyway is so named (a BOM and a NUL byte in
the first 8000 bytes): a Latin-1 text that happens to start with the bytes of `ÿþ` is read as before."""

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


UTF8_BOM = b"\xef\xbb\xbf"


def decode(data: bytes) -> tuple[str, str]:
    """UTF-8 (a leading BOM dropped); text that is not valid UTF-8 is read as Latin-1.

    Latin-1 maps every byte to one character, so nothing is lost and the legacy 8-bit files
    common in old corpora (newsgroups, cp1252 exports) keep their accented letters readable.
    """
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


# A file that is UTF-8 (with letters beyond ASCII) but for at most this many bytes is named in a
# note: read whole as Latin-1 (as both engines read a file that is not UTF-8), its non-ASCII letters
# differ from those of a clean UTF-8 copy, which it then misses (J = 0.117 for one stray byte).
NEARLY_UTF8 = 16


def invalid_utf8_bytes(data: bytes) -> int | None:
    """How many bytes of `data` are not part of valid UTF-8, when the rest holds UTF-8 letters
    beyond ASCII (a mixed file); None for a file with none (ASCII and a few cp1252 quotes: Latin-1
    text, rightly read so)."""
    valid = data.decode("utf-8", "ignore").encode("utf-8")
    if valid.isascii():
        return None
    return len(data) - len(valid)


def nearly_utf8_note(found: list[tuple[object, int]]) -> str:
    doc_id, stray = found[0]
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    return (
        f"{doc_id}{more}: UTF-8 but for {stray} byte{'s' if stray > 1 else ''}, so read whole as Latin-1 (its "
        "accented letters then differ from a UTF-8 copy's); fix or drop the stray bytes (iconv -c) to compare them"
    )
