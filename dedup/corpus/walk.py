"""Walking a folder tree without recursion.

Python 3.11's os.walk and Path.rglob call themselves once per level, so a folder 1,500 levels
deep stopped a run with a RecursionError; this walk keeps its own stack.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path


def walk(root: Path, onerror: Callable[[OSError], None] | None = None) -> Iterator[tuple[Path, list[str], list[str]]]:
    """(folder, subfolder names, other names) for `root` and every folder below it, top-down, as
    os.walk gives them: the caller may prune the subfolder names in place; a symlink to a folder
    is listed among the subfolders but not entered; a folder that cannot be listed is passed to
    onerror and skipped."""
    stack = [root]
    while stack:
        top = stack.pop()
        try:
            with os.scandir(top) as found:
                entries = list(found)
        except OSError as error:
            if onerror is not None:
                onerror(error)
            continue
        folders: list[str] = []
        others: list[str] = []
        for entry in entries:
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            (folders if is_folder else others).append(entry.name)
        yield top, folders, others
        for name in reversed(folders):
            path = top / name
            if not path.is_symlink():
                stack.append(path)


def walk_tree(root: Path) -> Iterator[tuple[Path, bool]]:
    """(path, is a folder) for everything below `root`, symlinked folders not entered."""
    for top, folders, others in walk(root):
        for name in folders:
            yield top / name, True
        for name in others:
            yield top / name, False


def files_below(root: Path) -> Iterator[Path]:
    """Every path below `root` that is not a folder (files, symlinks to files, special files)."""
    return (path for path, is_folder in walk_tree(root) if not is_folder)
