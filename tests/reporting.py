"""Databases for the report tests: the bundled sample plus hostile documents, built by the real CLI."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO
from indexing import invoke, write_jsonl

# Documents are untrusted: markup in a text or an id must reach the page as text.
HOSTILE_TEXT = (
    "<script>document.title = 'pwned'; window.pwned = 1;</script> "
    '<img src=x onerror="window.pwned = 2"> an ordinary sentence about deduplication of web pages '
    "that keeps going long enough to share many shingles with its near copy & friends."
)
HOSTILE = {
    'evil<blink>"&amp;': HOSTILE_TEXT,
    "evil-copy": HOSTILE_TEXT.replace("ordinary", "everyday"),
    "plain": "nothing to see here, a document that is similar to no other document in this corpus at all.",
}


def clough_db(tmp_path: Path, *options: object) -> Path:
    db = tmp_path / "clough.duckdb"
    invoke("run", REPO / "data" / "clough", "--db", db, "-q", "--output", tmp_path / "pairs.csv", *options)
    return db


def hostile_db(tmp_path: Path) -> Path:
    table = write_jsonl(tmp_path / "hostile.jsonl", HOSTILE)
    db = tmp_path / "hostile.duckdb"
    invoke("run", table, "--db", db, "-q", "--threshold", "0.5", "-k", "5")
    return db
