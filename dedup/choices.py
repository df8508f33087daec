"""Every set of choices of dedup, defined once: the CLI's options, Settings' checks and the
library's string arguments all use these (a StrEnum member equals its string value).

Kept free of heavy imports so that `dedup --help` stays quick.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from .errors import UsageError
from .formats import Format

Choice = TypeVar("Choice", bound=StrEnum)


class ShingleType(StrEnum):
    """What a shingle is made of."""

    char = "char"  # k consecutive code points of the normalized text
    word = "word"  # k consecutive tokens


class Method(StrEnum):
    """How candidate pairs are found (every candidate is then verified by exact Jaccard)."""

    lsh = "lsh"  # MinHash bands
    signature = "signature"  # all pairs of signatures
    exact = "exact"  # all pairs, prefix filter


class Keep(StrEnum):
    """The order in which documents are preferred as survivors, after the --keep-by key, ties by
    input position: each member is one line of sql/fragments/keep_order.sql (both rules' order)."""

    first = "first"  # earliest in input order
    min_id = "min-id"  # smallest id
    longest = "longest"  # longest text (code points)
    shortest = "shortest"  # shortest text


class Resolve(StrEnum):
    """Which documents survive (sql/queries/clusters/)."""

    verified = "verified"  # walking the --keep order, a document is dropped only for a kept verified pair
    components = "components"  # one document per connected component of the pairs


class ExportKind(StrEnum):
    """What `dedup export` writes."""

    pairs = "pairs"
    clusters = "clusters"
    duplicates = "duplicates"
    survivors = "survivors"
    adjacency = "adjacency"


class PairsListed(StrEnum):
    """Which pairs a run lists (--output, stdout): every one, those between groups of exact copies, none."""

    all = "all"  # every pair >= threshold
    between_groups = "between-groups"  # not the pairs of exact copies (the same normalized text)
    none = "none"  # no pairs: clusters, survivors and duplicates come from --db / --export


class AuditFormat(StrEnum):
    """How `dedup audit` prints what it measured."""

    table = "table"  # lines to read, then the missed pairs as a table
    json = Format.json  # one JSON object (dedup.recall.Audit.as_dict)


class InfoFormat(StrEnum):
    """How `dedup info` prints what a database holds."""

    table = "table"  # lines to read, then the tables and the runs as tables
    json = Format.json  # one JSON object (dedup.index.info.Info.as_dict)


class EngineName(StrEnum):
    """Which engine runs the stages."""

    duckdb = "duckdb"
    spark = "spark"


class TableFormat(StrEnum):
    """How a table is printed to stdout."""

    table = "table"
    csv = Format.csv
    jsonl = Format.jsonl


def values(choices: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in choices)


def choose(choices: type[Choice], value: object, option: str) -> Choice:
    """A member of a StrEnum from its value, or a one-line error that lists the choices."""
    if value not in values(choices):
        raise UsageError(f"{option} must be one of {', '.join(values(choices))}, got {value!r}")
    return choices(value)
