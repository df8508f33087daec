"""How messages count things: `1 document`, `2 documents`, `1,234 pairs`."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """The count, with thousands separators, and the noun in the number it takes."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
