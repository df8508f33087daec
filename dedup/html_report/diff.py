"""Differing spans of two texts, word by word, with Python's difflib (no hand-written diff)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

# A word or a single other character, each with the whitespace after it (and leading
# whitespace alone): a diff at this grain reads like an edit (a changed word is highlighted
# whole), joining the tokens gives back the text exactly, and no token is as common as a lone
# space would be (difflib's matcher is ~8x faster on the Clough sample than with one).
TOKEN = re.compile(r"\w+\s*|[^\w\s]\s*|\s+", re.UNICODE)


@dataclass(frozen=True)
class Span:
    text: str
    changed: bool  # not in the other text


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def _spans(parts: list[tuple[str, bool]]) -> list[Span]:
    """Adjacent parts of the same kind joined, so the page has few elements."""
    spans: list[Span] = []
    for text, changed in parts:
        if not text:
            continue
        if spans and spans[-1].changed == changed:
            spans[-1] = Span(spans[-1].text + text, changed)
        else:
            spans.append(Span(text, changed))
    return spans


def side_by_side(a: str, b: str) -> tuple[list[Span], list[Span]]:
    """Each text as spans, `changed` where it differs from the other (difflib opcodes on tokens)."""
    ta, tb = tokens(a), tokens(b)
    matcher = SequenceMatcher(None, ta, tb, autojunk=False)
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        left.append(("".join(ta[i1:i2]), tag != "equal"))
        right.append(("".join(tb[j1:j2]), tag != "equal"))
    return _spans(left), _spans(right)


def shared_text(a: str, b: str, limit: int = 400, min_tokens: int = 3) -> str:
    """The longest stretches the two texts share, in the order of `a`, joined by ' … ', up to `limit` characters."""
    ta, tb = tokens(a), tokens(b)
    matcher = SequenceMatcher(None, ta, tb, autojunk=False)
    blocks = [block for block in matcher.get_matching_blocks() if block.size >= min_tokens]
    chosen, total = [], 0
    for block in sorted(blocks, key=lambda block: (-block.size, block.a)):
        text = "".join(ta[block.a : block.a + block.size]).strip()
        if not text:
            continue
        chosen.append((block.a, text))
        total += len(text)
        if total >= limit:
            break
    joined = " … ".join(text for _, text in sorted(chosen))
    return joined if len(joined) <= limit else joined[: limit - 1] + "…"
