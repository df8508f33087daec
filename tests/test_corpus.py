"""Reading folders, line files and tables into documents."""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app
from dedup.corpus.read import read_by_python, read_inputs
from dedup.errors import InputError, UsageError
from dedup.settings import Reading


def read_corpus(inputs, **options):
    """The corpus of `inputs` read with these input options, as a run reads it."""
    return read_inputs(Reading(inputs=tuple(inputs), **options))


def docs(corpus) -> dict:
    return dict(zip(corpus.ids, corpus.texts().to_pylist(), strict=True))


def test_folder_ids_are_relative_paths_sorted_recursively(tmp_path):
    (tmp_path / "b" / "c").mkdir(parents=True)
    (tmp_path / "z.txt").write_text("z")
    (tmp_path / "b" / "c" / "deep.txt").write_text("deep")
    (tmp_path / "b" / "name with spaces;'\".txt").write_text("odd")
    corpus = read_corpus([tmp_path])
    assert corpus.ids == sorted(corpus.ids) == ["b/c/deep.txt", "b/name with spaces;'\".txt", "z.txt"]


def test_several_inputs_keep_ids_unique(tmp_path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "same.txt").write_text(name)
    corpus = read_corpus([tmp_path / "one", tmp_path / "two"])
    assert docs(corpus) == {f"{tmp_path}/one/same.txt": "one", f"{tmp_path}/two/same.txt": "two"}
    with pytest.raises(UsageError, match="are the same folder: give it once"):
        read_corpus([tmp_path / "one", tmp_path / "one"])


def test_bom_is_dropped_and_latin1_is_read_and_counted(tmp_path):
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfhello")
    (tmp_path / "latin1.txt").write_bytes("café naïve".encode("cp1252"))
    corpus = read_corpus([tmp_path])
    assert docs(corpus) == {"bom.txt": "hello", "latin1.txt": "café naïve"}
    assert corpus.latin1 == 1


def test_hidden_and_binary_files_are_skipped_with_reasons(tmp_path):
    (tmp_path / ".hidden").write_text("secret")
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (tmp_path / "ok.txt").write_text("fine")
    corpus = read_corpus([tmp_path])
    assert corpus.ids == ["ok.txt"]
    assert {(s.source, s.reason.split(" ")[0]) for s in corpus.skipped} == {
        (".hidden", "hidden"),
        ("image.png", "binary"),
    }
    assert read_corpus([tmp_path], include_hidden=True).ids == [".hidden", "ok.txt"]


def test_lines_split_on_newline_only(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes("first\r\nsec\u2028ond\u0085x\n\nlast\n".encode())
    corpus = read_corpus([path], lines=True)
    assert docs(corpus) == {1: "first", 2: "sec\u2028ond\u0085x", 3: "", 4: "last"}


def test_lines_without_final_newline_and_invalid_bytes(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes(b"ok\ncaf\xe9")
    corpus = read_corpus([path], lines=True)
    assert docs(corpus) == {1: "ok", 2: "café"}
    assert corpus.latin1 == 1


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_tables_by_extension(tmp_path, suffix):
    table = pa.table({"key": ["a", "b"], "body": ["x\ny", "z"], "id": [10, 20]})
    path = tmp_path / f"t{suffix}"
    if suffix == ".parquet":
        pq.write_table(table, path)
    elif suffix == ".csv":
        path.write_text('key,body,id\na,"x\ny",10\nb,z,20\n')
    else:
        path.write_text('{"key": "a", "body": "x\\ny", "id": 10}\n{"key": "b", "body": "z", "id": 20}\n')
    assert docs(read_corpus([path], id_column="key", text_column="body")) == {"a": "x\ny", "b": "z"}
    ids = ("10", "20") if suffix == ".csv" else (10, 20)  # a CSV's cells are text, read as written
    assert docs(read_corpus([path], text_column="body")) == {ids[0]: "x\ny", ids[1]: "z"}


def test_table_without_id_column_uses_row_numbers(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"text": ["a", None, "c"]}), path)
    corpus = read_corpus([path])
    assert docs(corpus) == {1: "a", 3: "c"}
    assert [(s.source, s.reason) for s in corpus.skipped] == [("2", "text is NULL")]


def test_table_errors_name_the_columns(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [1, 1], "body": ["a", "b"], "n": [1, 2]}), path)
    with pytest.raises(InputError, match="no text column 'text'; columns are 'id', 'body', 'n'"):
        read_corpus([path])
    with pytest.raises(InputError, match="duplicate document id 1"):
        read_corpus([path], text_column="body")
    with pytest.raises(InputError, match="has type int64"):
        read_corpus([path], text_column="n")


def test_missing_input_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="input not found"):
        read_corpus([tmp_path / "nope"])


def test_file_names_that_are_not_utf8_are_ids_with_their_bytes_escaped(tmp_path):
    folder = tmp_path / "c"
    (folder / os.fsdecode(b"sub\xff")).mkdir(parents=True)
    for name in (b"caf\xe9.txt", b"sub\xff/x.txt", b"cafe.txt"):
        (folder / os.fsdecode(name)).write_text("the quick brown fox jumps over")
    out = tmp_path / "kept"
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(folder),
            "--threshold",
            "0.5",
            "--format",
            "csv",
            "-q",
            "--keep",
            "min-id",
            "--write-deduplicated",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == [
        "caf\\xe9.txt,cafe.txt,1.0,1.0",
        "caf\\xe9.txt,sub\\xff/x.txt,1.0,1.0",
        "cafe.txt,sub\\xff/x.txt,1.0,1.0",
    ]
    assert os.listdir(os.fsencode(out)) == [b"caf\xe9.txt"]  # the survivor, written under its own name


def test_tables_between_files_keep_the_input_order_with_their_texts_as_arrow(tmp_path):
    """A table's texts stay Arrow strings (large, dictionary or binary columns cast chunk by chunk),
    its NULL texts listed as skipped; the documents keep the order of the inputs and of their rows."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "a.txt").write_bytes("caf\xe9".encode("latin-1"))
    texts = pa.chunked_array([pa.array(["one", None], pa.large_string()), pa.array(["three"], pa.large_string())])
    pq.write_table(pa.table({"id": ["x", "y", "z"], "text": texts}), tmp_path / "t1.parquet")
    (tmp_path / "lines.txt").write_text("l1\nl2\n")
    pq.write_table(pa.table({"text": pa.array(["d", "e"]).dictionary_encode()}), tmp_path / "t2.parquet")
    pq.write_table(pa.table({"text": pa.array([b"bin", None], pa.binary())}), tmp_path / "t3.parquet")
    inputs = [tmp_path / name for name in ("folder", "t1.parquet", "lines.txt", "t2.parquet", "t3.parquet")]
    read = read_by_python(Reading(inputs=tuple(inputs)))
    assert read.raw is not None and read.raw.schema.field("text").type == pa.string()
    rows = [(r["position"], r["id"], r["text"], r["encoding"]) for r in read.raw.to_pylist()]
    t = tmp_path
    assert rows == [
        (1, f"{t}/folder/a.txt", "café", "latin-1"),
        (2, f"{t}/t1.parquet:x", "one", "utf-8"),
        (3, f"{t}/t1.parquet:z", "three", "utf-8"),
        (4, f"{t}/lines.txt", "l1\nl2\n", "utf-8"),
        (5, f"{t}/t2.parquet:1", "d", "utf-8"),
        (6, f"{t}/t2.parquet:2", "e", "utf-8"),
        (7, f"{t}/t3.parquet:1", "bin", "utf-8"),
    ]
    assert read.skipped.to_pylist() == [
        {"source": f"{t}/t1.parquet:y", "reason": "text is NULL"},
        {"source": f"{t}/t3.parquet:2", "reason": "text is NULL"},
    ]
    assert read.latin1 == 1


def test_a_file_that_is_utf8_but_for_one_byte_is_named_in_a_note(tmp_path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    text = "Le café était très bon et la crème brûlée aussi, à Paris en été."
    (folder / "clean.txt").write_text(text, encoding="utf-8")
    (folder / "stray.txt").write_bytes(text.encode("utf-8").replace("café".encode(), b"caf\xe9"))
    result = CliRunner().invoke(app, ["run", str(folder), "-k", "3"])
    assert result.exit_code == 0, result.output
    assert "(1 decoded as Latin-1)" in result.stderr
    assert "note: stray.txt: UTF-8 but for 1 byte, so read whole as Latin-1" in result.stderr
