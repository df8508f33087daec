"""Every file format dedup reads or writes, in one registry: the suffixes that name it, where it
may be used (a table input, `--output` and the deduplicated copy of a table, an export), which
cells may hold Latin-1, and a delimited format's separator. The readers (dedup.corpus.tables,
Spark's in dedup.engines.spark.read) and the writers (dedup.output, dedup.index.export) look a
format up here; no other module names one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Format(StrEnum):
    parquet = "parquet"
    csv = "csv"
    tsv = "tsv"
    jsonl = "jsonl"  # JSON lines: one object per line
    json = "json"  # one JSON array of objects (exports)
    txt = "txt"  # one value per line (exports of ids)


@dataclass(frozen=True)
class Spec:
    format: Format
    suffixes: tuple[str, ...]  # lowercase, with the dot; the first is the one dedup names
    table_input: bool = False  # read as a table input (gzip-compressed too, if compressible)
    output: bool = False  # --output, and a table's --write-deduplicated copy
    export: bool = False  # `dedup export -o`, `--export WHAT=FILE`
    compressible: bool = False  # `.gz` after the suffix is read as gzip
    # the columns whose cells may be read as Latin-1 when they are not UTF-8, as a text file is:
    # every cell of a CSV (it declares no encoding: Latin-1 and cp1252 exports are common); the
    # texts of a Parquet file (UTF-8 by its spec, but a writer may not check). JSON is UTF-8 by
    # definition (RFC 8259), and Spark's reader cannot give its bytes back: an error.
    latin1_cells: tuple[str, ...] = ()
    delimiter: str | None = None  # a delimited text table: its separator unless --delimiter
    # the format whose Spark reader reads it (its options: dedup.engines.spark.read._table_reader);
    # None: Spark has no reader of it, and an input of it is refused with --engine spark
    spark_reader: Format | None = None


SPECS = {
    spec.format: spec
    for spec in (
        Spec(
            Format.parquet,
            (".parquet",),
            table_input=True,
            output=True,
            export=True,
            latin1_cells=("text",),
            spark_reader=Format.parquet,
        ),
        Spec(
            Format.csv,
            (".csv",),
            table_input=True,
            output=True,
            export=True,
            compressible=True,
            latin1_cells=("text", "id"),
            delimiter=",",
            spark_reader=Format.csv,
        ),
        Spec(
            Format.tsv,
            (".tsv",),
            table_input=True,
            compressible=True,
            latin1_cells=("text", "id"),
            delimiter="\t",
            spark_reader=Format.csv,
        ),
        Spec(
            Format.jsonl,
            (".jsonl", ".ndjson"),
            table_input=True,
            output=True,
            export=True,
            compressible=True,
            spark_reader=Format.jsonl,
        ),
        Spec(Format.json, (".json",), export=True),
        Spec(Format.txt, (".txt",), export=True),
    )
}
COMPRESSED = (".gz",)  # a compressible table's suffix may be followed by this (`.csv.gz`)


def _suffixes(use: str) -> dict[str, Format]:
    return {suffix: spec.format for spec in SPECS.values() if getattr(spec, use) for suffix in spec.suffixes}


TABLE_FORMATS = _suffixes("table_input")  # a table input's format by its suffix
OUTPUT_FORMATS = _suffixes("output")  # --output's, and a deduplicated table's
EXPORT_FORMATS = _suffixes("export")  # an export's
PARQUET = Format.parquet
SUFFIX = {spec.format: spec.suffixes[0] for spec in SPECS.values()}  # the suffix dedup names a format by


def is_delimited(kind: str | None) -> bool:
    """Whether `kind` is a delimited text table (CSV, TSV)."""
    return kind is not None and kind in SPECS and SPECS[Format(kind)].delimiter is not None


def separator(kind: str | None, given: str | None) -> str:
    """A delimited table's field separator: the one given (--delimiter), else its format's."""
    default = SPECS[Format(kind)].delimiter if kind in SPECS else None
    return given or default or ","


def latin1_cells(kind: str | None) -> tuple[str, ...]:
    return SPECS[Format(kind)].latin1_cells if kind in SPECS else ()


def spark_reader(kind: str | None) -> Format | None:
    """The format whose Spark reader reads a table of `kind` (see Spec.spark_reader)."""
    return SPECS[Format(kind)].spark_reader if kind in SPECS else None


def compressible(kind: str | None) -> bool:
    return kind in SPECS and SPECS[Format(kind)].compressible
