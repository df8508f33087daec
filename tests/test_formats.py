"""The registry of file formats (dedup/formats.py): what each use accepts, as it was before the
registry (four tables in four modules), and every table input readable by both engines."""

from __future__ import annotations

from dedup.formats import (
    EXPORT_FORMATS,
    OUTPUT_FORMATS,
    SPECS,
    TABLE_FORMATS,
    is_delimited,
    latin1_cells,
    separator,
    spark_reader,
)


def test_each_use_accepts_the_suffixes_it_did():
    assert TABLE_FORMATS == {".parquet": "parquet", ".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
    assert OUTPUT_FORMATS == {".csv": "csv", ".parquet": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}
    assert EXPORT_FORMATS == {**OUTPUT_FORMATS, ".json": "json", ".txt": "txt"}


def test_delimited_tables_and_latin1_cells():
    assert [kind for kind in SPECS if is_delimited(kind)] == ["csv", "tsv"]
    assert (separator("csv", None), separator("tsv", None), separator("tsv", ";")) == (",", "\t", ";")
    assert (
        latin1_cells("csv") == ("text", "id") and latin1_cells("parquet") == ("text",) and latin1_cells("jsonl") == ()
    )
    assert latin1_cells(None) == ()


def test_every_table_input_has_a_spark_reader():
    for spec in SPECS.values():
        if spec.table_input:
            assert spark_reader(spec.format) is not None, spec.format
    assert spark_reader("tsv") == spark_reader("csv") != spark_reader("jsonl")
    assert spark_reader(None) is None
