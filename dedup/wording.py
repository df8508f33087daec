"""How messages count things: `1 document`, `2 documents`, `1,234 pairs`."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """The count, with thousands separators, and the noun in the number it takes."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def sized(size: int) -> str:
    """Bytes in decimal units, three figures or more: 512 bytes, 84.3 KB, 1.9 MB, 12.4 GB."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}"
    return counted(size, "byte")
