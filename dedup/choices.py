"""Every set of choices of dedup, defined once: the CLI's options, Settings' checks and the
library's string arguments all use these (a StrEnum member equals its string value).

Kept free of heavy imports so that `dedup --help` stays quick.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from .errors import UsageError
from .formats import Format

Choice = TypeVar("Choice", bound=StrEnum)


class ShingleType(StrEnum):
    """What a shingle is made of: each member has its Shingling (SHINGLINGS) and its tokens fragments."""

    char = "char"
    word = "word"


@dataclass(frozen=True)
class Shingling:
    """What a --shingle-type is, beside its SQL: the tokens fragments named after it
    (sql/fragments/tokens_<type>.sql and pieces_<type>.sql, sql/spark/fragments/tokens_<type>.sql),
    which give each document's tokens; a k-shingle is k consecutive tokens."""

    help: str  # what a token is
    joiner: str  # the SQL literal joining a shingle's token texts into its text (explain, the report)
    # text bytes per token, about: a shingle starts at every token (batch sizes, in-memory runs)
    bytes_per_shingle: int
    words: bool  # its tokens are words: text written without spaces has few (dedup.pipeline.few_words_note)


SHINGLINGS = {
    ShingleType.char: Shingling("a code point of the normalized text", "''", 1, words=False),
    ShingleType.word: Shingling("a word (a run of letters, digits and _)", "' '", 4, words=True),
}


class Method(StrEnum):
    """How candidate pairs are found (every candidate is then verified by exact Jaccard)."""

    lsh = "lsh"  # MinHash bands
    signature = "signature"  # all pairs of signatures
    exact = "exact"  # all pairs, prefix filter


class Keep(StrEnum):
    """The order in which documents are preferred as survivors, after the --keep-by key, ties by
    input position: each member is one line of sql/fragments/keep_order.sql (both rules' order)
    and has its help (KEEP_ORDERS)."""

    first = "first"
    min_id = "min-id"
    longest = "longest"
    shortest = "shortest"


KEEP_ORDERS = {
    Keep.first: "the earliest in input order",
    Keep.min_id: "the smallest id",
    Keep.longest: "the longest text (code points)",
    Keep.shortest: "the shortest text",
}


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


def described(helps: Mapping[Choice, str]) -> str:
    """The choices with their help, for an option's help text: `first: the earliest ...; min-id: ...`."""
    return "; ".join(f"{choice.value}: {text}" for choice, text in helps.items())


def values(choices: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in choices)


def choose(choices: type[Choice], value: object, option: str) -> Choice:
    """A member of a StrEnum from its value, or a one-line error that lists the choices."""
    if value not in values(choices):
        raise UsageError(f"{option} must be one of {', '.join(values(choices))}, got {value!r}")
    return choices(value)
