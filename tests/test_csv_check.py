"""The strict CSV check both engines run before reading a CSV or TSV (dedup/corpus/csv_check.py):
what it refuses, with which line, and that what it lets through is read as Python's csv reads it."""

from __future__ import annotations

import csv
import gzip
import io

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dedup.cli import app
from dedup.corpus.csv_check import check_csv
from dedup.corpus.tables import table_format, table_parts
from dedup.errors import InputError
from dedup.formats import compression_of

GZIP = compression_of("t.gz")

runner = CliRunner()

QUOTE = "a quoted value does not end at a ',' or a line end"

REFUSED = [
    ("unterminated", b'id,text\n1,"unterminated\n', f"line 2: {QUOTE} (unexpected end of data)"),
    ("open to the end", b'id,text\n1,"open\n2,hello\n3,more\n', f"line 4: {QUOTE} (unexpected end of data)"),
    ("open, no final line break", b'id,text\n1,"abc', f"line 2: {QUOTE} (unexpected end of data)"),
    ("text after a closing quote", b'id,text\n1,"abc"def\n2,hello\n', f"line 2: {QUOTE} (',' expected after '\"')"),
    ("too few fields", b"id,text\n1\n2,hello\n", "line 2: expected 2 fields separated by ',', got 1: '1'"),
    ("too many fields", b'id,text\n1,"a\nb"\n2,a,b\n', "line 4: expected 2 fields separated by ',', got 3: '2,a,b'"),
    ("a row ending otherwise", b"id,text\n1,a\r\n2,b\n", "line 2: the row ends with '\\r\\n' and the header line with"),
    ("a blank line ending otherwise", b"id,text\n\r\n2,b\n", "line 2: the row ends with '\\r\\n' and the header line"),
]


@pytest.mark.parametrize("content,message", [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_a_file_the_engines_would_read_otherwise_is_refused_naming_its_line(tmp_path, content, message):
    with pytest.raises(InputError) as raised:
        check_csv("t.csv", io.BytesIO(content), ",", None)
    assert str(raised.value).startswith(f"t.csv: {message}")
    corpus = tmp_path / "t.csv"
    corpus.write_bytes(content)
    result = runner.invoke(app, ["run", str(corpus), "-q"])
    assert (result.exit_code, result.output.count("\n")) == (1, 1)
    assert result.output.startswith(f"Error: {corpus}: {message}")


ACCEPTED = [
    b'id,text\n1,"a ""quoted"" word"\n2,bar" she said\n',  # an escaped quote; a stray quote inside a value
    b'id,text\r\n1,"a\r\nb"\r\n\r\n2,x\r\n',  # \r\n throughout; a blank line; a line break in a quoted value
    b'\xef\xbb\xbfid,text\n1,"a\r\nb"\n2,x',  # a BOM; \r\n inside quotes only; no final line break
    b"id,text\r1,a\r2,b\r",  # \r throughout
    b"id,text\n",
    b"",
]


@pytest.mark.parametrize("content", ACCEPTED)
def test_well_formed_files_pass_gzip_compressed_or_not(content):
    check_csv("t.csv", io.BytesIO(content), ",", None)
    check_csv("t.csv.gz", io.BytesIO(gzip.compress(content)), ",", GZIP)


def test_a_gz_that_is_not_gzip_is_named():
    with pytest.raises(InputError, match=r"^t\.csv\.gz: damaged, or not gzip-compressed"):
        check_csv("t.csv.gz", io.BytesIO(b"id,text\n1,a\n"), ",", GZIP)


CELLS = st.lists(st.sampled_from(["a", "é", ",", '"', '""', "\n", "\r\n", "\r", " ", '"x"', "\t"]), max_size=16)


@hypothesis_settings(max_examples=300, deadline=None)
@given(cells=CELLS, line_break=st.sampled_from(["\n", "\r\n", "\r"]))
def test_what_passes_is_read_by_pyarrow_as_pythons_csv_reads_it(tmp_path_factory, cells, line_break):
    """The oracle: a file the check lets through has one reading. (Spark's reading of the same
    files is compared with the DuckDB engine's in tests/test_spark_cli.py.)"""
    content = ("id,text" + line_break + "".join(cells)).encode()
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_bytes(content)
    try:
        check_csv("t.csv", io.BytesIO(content), ",", None)
    except InputError:
        with pytest.raises(InputError):
            list(table_parts(path, table_format(path)))
        return
    rows = [row for row in csv.reader(io.StringIO(content.decode(), newline=""), strict=True) if row]
    read = pa.concat_tables(table_parts(path, table_format(path))).to_pylist()
    assert [[cell.decode() for cell in row.values()] for row in read] == rows[1:]


@pytest.mark.parametrize("suffix", [".csv", ".csv.gz"])
def test_a_file_moved_over_the_path_while_it_is_checked_is_not_read(tmp_path, monkeypatch, suffix):
    """The check, the header and the rows each opened the path: `mv bad.csv sw.csv` during a run's
    check gave exit 0 with the rows of a file the check refuses. The file is now opened once, and
    what is read is what was checked."""
    from dedup.corpus import csv_check

    checked, swapped = b"id,text\n1,the checked file\n2,its second row\n", b'id,text\n1,"stray"quote\n9,other\n'
    path = tmp_path / f"sw{suffix}"
    pack = gzip.compress if suffix.endswith(".gz") else bytes
    path.write_bytes(pack(checked))
    check = csv_check.check_csv

    def check_then_swap(*args, **kwargs):
        layout = check(*args, **kwargs)
        (tmp_path / "bad").write_bytes(pack(swapped))
        (tmp_path / "bad").replace(path)  # as `mv bad.csv sw.csv` does, once the file passed
        return layout

    monkeypatch.setattr(csv_check, "check_csv", check_then_swap)
    rows = pa.concat_tables(table_parts(path, table_format(path))).to_pylist()
    assert [(r["id"], r["text"]) for r in rows] == [(b"1", b"the checked file"), (b"2", b"its second row")]
    with pytest.raises(InputError, match="line 2"):  # the file moved there is refused on its own
        list(table_parts(path, table_format(path)))


def test_a_column_name_that_is_not_utf8_is_one_line(tmp_path):
    """pyarrow gave the names of a header with a Latin-1 byte as a UnicodeDecodeError: a traceback."""
    path = tmp_path / "latin1.csv"
    path.write_bytes(b"id,t\xe9xt\n1,hello\n")
    result = runner.invoke(app, ["run", str(path)])
    assert (
        result.exit_code == 1
        and result.stderr == f"Error: {path}: line 1: the column name t\\xe9xt is not UTF-8 text\n"
    )
