"""The registry of file formats (dedup/formats.py): what each use accepts, as it was before the
registry (four tables in four modules), and every table input readable by both engines."""

from __future__ import annotations

from dedup.formats import (
    COPY_FORMATS,
    EXPORT_FORMATS,
    OUTPUT_FORMATS,
    PAGE_FORMATS,
    PLOT_FORMATS,
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
    assert COPY_FORMATS == OUTPUT_FORMATS  # a table is copied in any format the pairs are written in
    assert PLOT_FORMATS == {".png": "png", ".svg": "svg", ".pdf": "pdf"}
    assert PAGE_FORMATS == {".html": "html", ".htm": "html"}


def test_every_plot_format_is_one_matplotlib_draws_and_the_report_writes_html(tmp_path):
    import pytest

    from dedup.html_report import check_report_name

    matplotlib = pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    supported = Figure().canvas.get_supported_filetypes()
    assert all(kind in supported for kind in PLOT_FORMATS.values()), matplotlib.__version__
    for suffix in PAGE_FORMATS:
        check_report_name(tmp_path / f"report{suffix}")  # named as a page: accepted


def test_delimited_tables_and_latin1_cells():
    assert [kind for kind in SPECS if is_delimited(kind)] == ["csv", "tsv"]
    assert (separator("csv", None), separator("tsv", None), separator("tsv", ";")) == (",", "\t", ";")
    assert (
        latin1_cells("csv") == ("text", "id") and latin1_cells("parquet") == ("text",) and latin1_cells("jsonl") == ()
    )
    assert latin1_cells(None) == ()


def test_every_table_input_has_its_reader_and_nothing_more():
    from dedup.corpus.tables import TABLE_READERS

    assert set(TABLE_READERS) == set(TABLE_FORMATS.values())


def test_every_table_input_has_a_spark_reader():
    for spec in SPECS.values():
        if spec.table_input:
            assert spark_reader(spec.format) is not None, spec.format
    assert spark_reader("tsv") == spark_reader("csv") != spark_reader("jsonl")
    assert spark_reader(None) is None


def test_every_registered_output_and_export_format_has_its_writer(tmp_path):
    """A format registered for --output or exports is written by its own writer, in every
    compression it is registered with: a format without one is an error (write_rows wrote JSON
    lines for any format that was not Parquet or CSV), never another format's bytes."""
    import pyarrow as pa
    import pytest

    from dedup.choices import ExportKind
    from dedup.formats import COMPRESSIONS, Format, compressible, open_binary
    from dedup.index.export import EXPORT_WRITERS, write_export
    from dedup.output import ROW_WRITERS, TextWriter, write_rows

    rows = pa.table({"id": ["a", "b"], "survivor": ["a", "a"], "jaccard": [None, 0.9]})
    for suffix, kind in OUTPUT_FORMATS.items():
        ends = [""] + ([c.suffixes[0] for c in COMPRESSIONS] if compressible(kind) else [])
        for end in ends:
            path = tmp_path / f"out{suffix}{end}"
            write_rows(rows, path)
            assert path.stat().st_size > 0 and (end == "" or open_binary(path).read(4) != path.read_bytes()[:4])
    for suffix in EXPORT_FORMATS:
        path = tmp_path / f"survivors{suffix}"
        assert write_export(rows, path, ExportKind.survivors) == 2, suffix
    # every registered use has its implementation, and nothing is implemented for a use not registered
    assert set(ROW_WRITERS) == set(OUTPUT_FORMATS.values()) | set(COPY_FORMATS.values())
    assert set(EXPORT_WRITERS) == set(EXPORT_FORMATS.values())
    for kind, writer in ROW_WRITERS.items():  # a text format is compressed as its name says
        assert isinstance(writer, TextWriter) == compressible(kind), kind
    assert not isinstance(ROW_WRITERS[Format.parquet], TextWriter)
    with pytest.raises(ValueError, match="no writer of rows as txt"):
        write_rows(rows, tmp_path / "x.txt", "txt")
