"""Choices of the index commands, kept free of heavy imports so that `dedup --help` stays quick."""

from __future__ import annotations

from enum import StrEnum


class Keep(StrEnum):
    """Which document of a cluster survives; ties are always broken by id."""

    first = "first"  # earliest in input order
    min_id = "min-id"  # smallest id
    longest = "longest"  # longest text (code points)
    shortest = "shortest"  # shortest text


class What(StrEnum):
    """What `dedup export` writes."""

    pairs = "pairs"
    clusters = "clusters"
    duplicates = "duplicates"
    survivors = "survivors"
    adjacency = "adjacency"
