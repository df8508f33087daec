"""Folders of text files, one document per file: what a folder walk reads and skips (hidden
names, symlinks, special files), a path as a document id, and a file's bytes as a document (a
file named for a compression, `a.txt.gz`, decompressed: its id keeps the name)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

from ..formats import SUFFIX, Format, compression_of, plain_name
from ..names import escaped, unescaped
from .collected import Corpus, Skipped
from .decoding import (
    BINARY_SKIPPED,
    BINARY_SNIFF_BYTES,
    NEARLY_UTF8,
    UTF16_SKIPPED,
    decode,
    invalid_utf8_bytes,
    is_utf16,
)
from .walk import walk

# The reasons a folder walk skips a name, the same on both engines.
HIDDEN_FOLDER = "hidden folder"
HIDDEN_FILE = "hidden file"
OUTSIDE_LINK = "symlink to a file outside the input (not followed; --follow-links reads it)"
FOLDER_LINK = "symlink to a folder (not followed)"


def walk_folder(root: Path, include_hidden: bool, follow_links: bool = False) -> Iterator[tuple[str, Path, str | None]]:
    """(relative posix path, path, reason to skip or None) for everything below root, sorted.
    A symlink to a file outside root is skipped unless follow_links (a link to /etc/passwd was
    read, and copied by --write-deduplicated); a symlink to a folder is never entered."""
    found: list[tuple[str, Path, str | None]] = []
    inside = root.resolve()

    def onerror(error: OSError) -> None:
        where = Path(error.filename) if error.filename else root
        found.append((_relative(where, root), where, f"unreadable: {error.strerror}"))

    for base, dirnames, filenames in walk(root, onerror=onerror):
        kept = []
        for name in dirnames:
            sub = base / name
            if name.startswith(".") and not include_hidden:
                found.append((_relative(sub, root) + "/", sub, HIDDEN_FOLDER))
            elif sub.is_symlink():
                found.append((_relative(sub, root) + "/", sub, FOLDER_LINK))
            else:
                kept.append(name)
        dirnames[:] = kept
        for name in filenames:
            path = base / name
            reason = None
            if name.startswith(".") and not include_hidden:
                reason = HIDDEN_FILE
            elif not path.exists():
                reason = "broken symlink"
            elif not path.is_file():
                reason = "not a regular file"
            elif not follow_links and path.is_symlink() and inside not in path.resolve().parents:
                reason = OUTSIDE_LINK
            found.append((_relative(path, root), path, reason))
    return iter(sorted(found, key=lambda item: item[0]))


def _relative(path: Path, root: Path) -> str:
    return path_id(path.relative_to(root))


def path_id(path: Path) -> str:
    """A path as a document id: the bytes of a name that are not UTF-8 (held by Python as surrogate
    escapes, which Arrow cannot store) written as \\xNN, as Python's backslashreplace shows them."""
    return escaped(path.as_posix())


def id_path(text: str) -> Path:
    """The path that path_id wrote as `text`."""
    return Path(unescaped(text))


def read_folder(
    corpus: Corpus, root: Path, prefix: Path | None, include_hidden: bool, follow_links: bool = False
) -> None:
    for relative, path, reason in walk_folder(root, include_hidden, follow_links):
        doc_id = path_id(prefix / relative) if prefix is not None else relative
        if reason is not None:
            corpus.skipped.append(Skipped(doc_id, reason))
            continue
        read_file(corpus, path, doc_id)


def read_file(corpus: Corpus, path: Path, doc_id: str) -> None:
    try:
        data = file_bytes(path)
    except OSError as error:
        corpus.skipped.append(Skipped(doc_id, f"unreadable: {error.strerror or error}"))
        return
    if b"\x00" in data[:BINARY_SNIFF_BYTES]:
        reason = UTF16_SKIPPED if is_utf16(data) else BINARY_SKIPPED
        corpus.skipped.append(Skipped(doc_id, reason))
        return
    text, encoding = decode(data)
    corpus.add(doc_id, text, encoding)
    if encoding == "latin-1":
        stray = invalid_utf8_bytes(data)
        if stray is not None and stray <= NEARLY_UTF8:
            corpus.nearly_utf8.append((doc_id, stray))


def file_bytes(path: Path) -> bytes:
    """A file's bytes, decompressed when its name says a compression (dedup.formats.COMPRESSIONS);
    an OSError names what failed (a damaged or cut short file: `Truncated compressed stream`)."""
    compression = compression_of(path)
    if compression is None:
        return path.read_bytes()
    try:
        with compression.reader(path) as stream:
            return stream.read()
    except OSError as error:
        if error.strerror:  # the file itself: not there, not allowed
            raise
        raise OSError(compression.damaged(error)) from None


def write_file_bytes(path: Path, data: bytes) -> None:
    """`data` written to a new file at `path`, compressed when its name says a compression."""
    compression = compression_of(path)
    if compression is None:
        path.write_bytes(data)
        return
    with compression.writer(path) as stream:
        stream.write(data)


def copy_file(source: Path, target: Path) -> None:
    """A file copied as it is, or through its bytes when the two names say different compressions
    (`a.txt.gz` to `a.txt`): what the target's name says is what it holds."""
    if compression_of(source) == compression_of(target):
        shutil.copyfile(source, target)
    else:
        write_file_bytes(target, file_bytes(source))


MANY_LINES = 10  # a file given alone with this many lines was probably meant as one document per line


def note_many_lines(corpus: Corpus, path: Path) -> None:
    if not corpus.ids or corpus.ids[-1] != path_id(path):
        return  # skipped (binary, unreadable): the summary lists it already
    if plain_name(path).suffix.lower() == SUFFIX[Format.json]:  # JSON lines are often named .json (Hugging Face)
        corpus.notes.append(
            f"1 document from {path}, read as text: name a JSON lines file .jsonl to read it as a table "
            "(a JSON array first through jq -c '.[]')"
        )
        return
    text = corpus.last_text()
    end = "\n" if "\n" in text or "\r" not in text else "\r"
    lines = text.count(end) + (not text.endswith(end))
    if lines >= MANY_LINES:
        corpus.notes.append(f"1 document from {path}, a file of {lines:,} lines: use --lines for one document per line")
