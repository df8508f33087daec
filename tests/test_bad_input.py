"""Bad input: every case gets a one-line message, or is processed and counted; nothing is lost.

The account test seeds one folder with every path and content case and checks, with a real
subprocess, that read = processed + empty + skipped and that each skipped input is listed with
its reason in the database's `skipped` table and by --show-skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import reference
from typer.testing import CliRunner

from dedup.cli import app

runner = CliRunner()
TEXT = "the quick brown fox jumps over the lazy dog near the river bank"
LONG_LINE = "".join(chr(0x61 + (i * 7919) % 26) for i in range(1_000_000))
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534

# name -> (bytes, fate): fate is "processed", "empty" or the reason it is skipped
FILES: dict[str, tuple[bytes, str]] = {
    "plain.txt": (TEXT.encode(), "processed"),
    "name with spaces.txt": (TEXT.encode(), "processed"),
    "quote\"s and 'single'.txt": (TEXT.encode(), "processed"),
    "semi;colon.txt": (b"another document entirely", "processed"),
    "new\nline.txt": (b"a file name with a newline", "processed"),
    "ünïcode-名前.txt": ("Größe und Maß".encode(), "processed"),
    "empty.txt": (b"", "empty"),
    "whitespace.txt": (b"  \n\t \r\n \xe2\x80\xa8 ", "empty"),
    "short.txt": (b"abc", "processed"),
    "latin1.txt": ("café olé".encode("latin-1"), "processed"),
    "bom.txt": (b"\xef\xbb\xbfhello with a bom", "processed"),
    "crlf.txt": (b"line one\r\nline two\r\n", "processed"),
    "long-line.txt": (LONG_LINE.encode(), "processed"),
    "nul.txt": (b"text\x00with a nul byte", "binary file (NUL byte in the first 8000 bytes)"),
    "image.png": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file (NUL byte in the first 8000 bytes)"),
    "archive.zip": (b"PK\x03\x04\x14\x00\x00\x00\x08\x00", "binary file (NUL byte in the first 8000 bytes)"),
    "notepad.txt": (
        "saved as Unicode".encode("utf-16"),
        "UTF-16 text (byte order mark): dedup reads UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8",
    ),
    "ff-fe.txt": ("\xff\xfe in Latin-1".encode("latin-1"), "processed"),
    ".hidden.txt": (TEXT.encode(), "hidden file"),
    "sub/.git/config": (b"[core]", "hidden folder"),  # reported as the folder
    "sub/nested.txt": (b"nested document text", "processed"),
}


def seed_folder(root: Path) -> dict[str, str]:
    """Write every case below root; return the expected fate of each input, by id."""
    fates: dict[str, str] = {}
    for name, (data, fate) in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if name != "sub/.git/config":
            fates[name] = fate
    fates["sub/.git/"] = "hidden folder"
    con = duckdb.connect(str(root / "old.duckdb"))
    con.execute("create table t as select range as x from range(1000)").fetchall()
    con.close()
    fates["old.duckdb"] = "binary file (NUL byte in the first 8000 bytes)"
    (root / "loop").mkdir()
    (root / "loop" / "up").symlink_to("..")
    fates["loop/up/"] = "symlink to a folder (not followed)"
    (root / "self").symlink_to("self")
    fates["self"] = "broken symlink"
    (root / "dangling").symlink_to("nowhere")
    fates["dangling"] = "broken symlink"
    (root / "link.txt").symlink_to("plain.txt")
    fates["link.txt"] = "processed"
    os.mkfifo(root / "fifo")
    fates["fifo"] = "not a regular file"
    unreadable = root / "unreadable.txt"
    unreadable.write_text(TEXT)
    unreadable.chmod(0)
    fates["unreadable.txt"] = "unreadable: Permission denied"
    return fates


@pytest.fixture
def world_readable_dir():
    """A folder that the unprivileged user can use too (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="dedup-bad-input-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def dedup_subprocess(*args: str) -> subprocess.CompletedProcess:
    # As root every file is readable: run as nobody so that permissions mean something.
    if IS_ROOT and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file permissions cannot be tested")
    as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] if IS_ROOT else []
    if as_nobody:  # a clone in a private folder (a container's home, mode 700): nobody cannot start dedup
        tried = subprocess.run([*as_nobody, sys.executable, "-c", "import dedup"], capture_output=True, text=True)
        if tried.returncode != 0:
            reason = (tried.stderr.strip().splitlines() or ["no message"])[-1]
            pytest.skip(f"the unprivileged user cannot run {sys.executable} with dedup ({reason})")
    return subprocess.run([*as_nobody, sys.executable, "-m", "dedup", *args], capture_output=True, text=True)


def test_seeded_folder_every_input_is_accounted_for(world_readable_dir):
    root = world_readable_dir / "seed"
    root.mkdir()
    fates = seed_folder(root)
    for path in root.rglob("*"):
        if not path.is_symlink() and path.name != "unreadable.txt":
            path.chmod(0o755 if path.is_dir() else 0o644)
    db = world_readable_dir / "run.duckdb"
    done = dedup_subprocess("run", str(root), "--db", str(db), "--show-skipped", "-t", "0.5", "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr

    expected_skipped = {name: fate for name, fate in fates.items() if fate not in ("processed", "empty")}
    processed = sum(1 for fate in fates.values() if fate == "processed")
    empty = sum(1 for fate in fates.values() if fate == "empty")
    read = len(fates)
    assert read == processed + empty + len(expected_skipped)
    assert (
        f"documents: {read} read = {processed} processed + {empty} empty + {len(expected_skipped)} skipped "
        f"(2 decoded as Latin-1)" in done.stderr
    )
    con = duckdb.connect(str(db), read_only=True)
    skipped = dict(con.execute("select source, reason from skipped").fetchall())
    documents = dict(con.execute("select id, text from documents").fetchall())
    counts = con.execute("select counts from runs").fetchall()[0][0]
    con.close()
    assert skipped == expected_skipped
    assert set(documents) == {name for name, fate in fates.items() if fate in ("processed", "empty")}
    assert documents["bom.txt"] == "hello with a bom"
    assert documents["crlf.txt"] == "line one\r\nline two\r\n"
    assert documents["latin1.txt"] == "café olé"
    assert documents["long-line.txt"] == LONG_LINE
    assert f'"read": {read}' in counts and f'"skipped": {len(expected_skipped)}' in counts
    # --show-skipped lists every one, control characters escaped so each stays on one line
    for name, reason in expected_skipped.items():
        assert f"  {name}: {reason}\n" in done.stderr
    # the identical files (and the symlink to one) pair; nothing else does at 0.5
    assert done.stdout.splitlines()[0] == "id_a,id_b,jaccard,estimate"
    assert sorted(done.stdout.splitlines()[1:]) == sorted(
        [
            "link.txt,name with spaces.txt,1.0,1.0",
            "link.txt,plain.txt,1.0,1.0",
            'link.txt,"quote""s and \'single\'.txt",1.0,1.0',
            "name with spaces.txt,plain.txt,1.0,1.0",
            'name with spaces.txt,"quote""s and \'single\'.txt",1.0,1.0',
            'plain.txt,"quote""s and \'single\'.txt",1.0,1.0',
        ]
    )


@pytest.mark.parametrize(
    "name,shown",
    [
        ("bad\nname.png", "bad\\nname.png"),  # a newline stays on one line
        (":smile:.png", ":smile:.png"),  # an emoji code is printed as it is, not as a smiley
    ],
)
def test_a_skipped_name_is_printed_on_one_line_as_it_is(tmp_path, name, shown):
    root = tmp_path / "seed"
    root.mkdir()
    (root / "ok.txt").write_text(TEXT)
    (root / name).write_bytes(b"\x89PNG\x00")
    result = runner.invoke(app, ["run", str(root), "--show-skipped", "-q"])
    assert result.exit_code == 0
    assert result.stderr == f"  {shown}: binary file (NUL byte in the first 8000 bytes)\n"


# -- paths -------------------------------------------------------------------------------------


def test_missing_path(tmp_path):
    result = runner.invoke(app, ["run", str(tmp_path / "nope")])
    assert result.exit_code == 2 and result.stderr == f"Error: input not found: {tmp_path / 'nope'}\n"


def test_empty_folder_warns_and_succeeds(tmp_path):
    (tmp_path / "empty").mkdir()
    result = runner.invoke(app, ["run", str(tmp_path / "empty")])
    assert result.exit_code == 0
    assert "documents: 0 read = 0 processed + 0 empty + 0 skipped" in result.stderr
    assert "warning: no documents were found in the inputs" in result.stderr


def test_symlink_loop_given_as_input_is_refused_and_skipped_inside_a_folder(tmp_path):
    """Given as the input, a loop of links names nothing to read: one line, exit 2 (it was a run
    that read nothing and exited 0). Inside a folder it is one of the files skipped, counted."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    result = runner.invoke(app, ["run", str(tmp_path / "a"), "--show-skipped"])
    assert result.exit_code == 2, result.stderr
    assert result.stderr == f"Error: the input {tmp_path / 'a'} is a loop of symbolic links: name a file or folder\n"
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "doc.txt").write_text("a document")
    (tmp_path / "corpus" / "loop").symlink_to(tmp_path / "a")
    result = runner.invoke(app, ["run", str(tmp_path / "corpus"), "--show-skipped"])
    assert result.exit_code == 0, result.stderr
    assert "  loop: " in result.stderr and "1 skipped" in result.stderr


# -- content -----------------------------------------------------------------------------------


def test_lines_mode_keeps_unicode_separators_and_nul_inside_lines(tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_bytes(
        b"first\xe2\x80\xa8still first\xc2\x85and still\r\n"  # U+2028, U+0085, CRLF
        b"nul\x00inside\n"
        b"\n"
        b"bad \xff utf-8\n" + LONG_LINE.encode() + b"\n"
    )
    db = tmp_path / "run.duckdb"
    result = runner.invoke(app, ["run", "--lines", str(lines), "--db", str(db), "-k", "3", "--keep-all-tables"])
    assert result.exit_code == 0, result.stderr
    assert "documents: 5 read = 4 processed + 1 empty + 0 skipped (1 decoded as Latin-1)" in result.stderr
    con = duckdb.connect(str(db), read_only=True)
    texts = dict(con.execute("select id, text from documents").fetchall())
    shingles = con.execute("select count(*) from shingles where doc_id = (select doc_id from documents where id = 5)")
    n_long = shingles.fetchall()[0][0]
    nul = {
        fp
        for (fp,) in con.execute(
            "select fingerprint from shingles join documents using (doc_id) where id = 2"
        ).fetchall()
    }
    con.close()
    assert texts == {
        1: "first\u2028still first\x85and still",
        2: "nul\x00inside",
        3: "",
        4: "bad \xff utf-8",
        5: LONG_LINE,
    }
    assert n_long == len(reference.shingles(LONG_LINE, 3))
    assert nul == reference.fingerprints(reference.shingles("nul\x00inside", 3))


# -- tables ------------------------------------------------------------------------------------


def write_parquet(path: Path, **columns) -> Path:
    pq.write_table(pa.table(columns), path)
    return path


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--text-column", "body"], "no text column 'body'; columns are 'id', 'text', 'n'"),
        (["--id-column", "key"], "no id column 'key'; columns are 'id', 'text', 'n'"),
        (["--text-column", "n"], "text column 'n' has type int64, expected strings"),
    ],
)
def test_table_column_errors_name_the_columns(tmp_path, options, message):
    table = write_parquet(tmp_path / "t.parquet", id=[1, 2], text=["a", "b"], n=[1, 2])
    result = runner.invoke(app, ["run", str(table), *options])
    assert result.exit_code == 1 and result.stderr == f"Error: {table}: {message}\n"


def test_duplicate_ids_name_an_example(tmp_path):
    table = write_parquet(tmp_path / "t.parquet", id=["a", "b", "a"], text=["x", "y", "z"])
    result = runner.invoke(app, ["run", str(table)])
    assert result.exit_code == 1 and result.stderr == "Error: duplicate document id 'a': ids must be unique\n"


@pytest.mark.parametrize("ids,nans", [([float("nan"), float("nan"), 1.0], 2), ([float("nan"), 2.0, 1.0], 1)])
def test_nan_ids_are_refused_not_two_documents_named_nan(tmp_path, ids, nans):
    """NaN equals nothing, not even NaN: two NaN ids passed the uniqueness check as two documents "nan"."""
    table = write_parquet(tmp_path / "t.parquet", id=ids, text=[TEXT, TEXT, "other"])
    result = runner.invoke(app, ["run", str(table)])
    message = f"id column 'id' has {nans} NaN (not a number) values; NaN cannot name a document"
    assert (result.exit_code, result.stderr) == (1, f"Error: {table}: {message}\n")


def test_null_text_is_skipped_with_a_reason(tmp_path):
    table = write_parquet(tmp_path / "t.parquet", id=[1, 2, 3], text=[TEXT, None, TEXT])
    result = runner.invoke(app, ["run", str(table), "--show-skipped"])
    assert result.exit_code == 0
    assert "documents: 3 read = 2 processed + 0 empty + 1 skipped" in result.stderr
    assert "  2: text is NULL\n" in result.stderr


def test_csv_with_quoted_newlines_and_nul(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text('id,text\n1,"line one\nline two"\n2,"line one\nline two"\n3,"nul\x00inside"\n', encoding="utf-8")
    result = runner.invoke(app, ["run", str(table), "--format", "csv", "-k", "3"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "id_a,id_b,jaccard,estimate\n1,2,1.0,1.0\n"
    assert "documents: 3 read = 3 processed + 0 empty + 0 skipped" in result.stderr


@pytest.mark.parametrize(
    "kind", ["parquet", "csv-header-only", "csv-zero-bytes", "jsonl-zero-bytes", "jsonl-blank-lines"]
)
def test_empty_table(tmp_path, kind):
    if kind == "parquet":
        path = write_parquet(tmp_path / "t.parquet", id=pa.array([], pa.int64()), text=pa.array([], pa.string()))
    elif kind == "csv-header-only":
        path = tmp_path / "t.csv"
        path.write_text("id,text\n")
    elif kind == "jsonl-blank-lines":  # was "no text column 'text'; columns are " (nothing after it)
        path = tmp_path / "t.jsonl"
        path.write_bytes(b" \n\n\t\r\n")
    else:
        path = tmp_path / ("t.csv" if kind.startswith("csv") else "t.jsonl")
        path.write_bytes(b"")
    result = runner.invoke(app, ["run", str(path)])
    assert "Traceback" not in result.stderr
    assert result.exit_code == 0, result.stderr
    assert "documents: 0 read = 0 processed + 0 empty + 0 skipped" in result.stderr
    assert "warning: no documents were found in the inputs" in result.stderr


def test_empty_parquet_still_checks_its_columns(tmp_path):
    path = write_parquet(tmp_path / "t.parquet", id=pa.array([], pa.int64()), body=pa.array([], pa.string()))
    result = runner.invoke(app, ["run", str(path)])
    assert (
        result.exit_code == 1 and result.stderr == f"Error: {path}: no text column 'text'; columns are 'id', 'body'\n"
    )


def test_parquet_files_a_dataset_leaves_out_are_listed_as_skipped(tmp_path):
    dataset = tmp_path / "docs.parquet"
    for name in ("a.parquet", "sub/b.parquet", "_part.parquet", ".hidden.parquet", "_temporary/0/c.parquet"):
        (dataset / name).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"text": [f"{TEXT} {name}"]}), dataset / name)
    (dataset / "_SUCCESS").write_bytes(b"")  # a marker, not a table: not listed
    result = runner.invoke(app, ["run", str(dataset), "--db", str(tmp_path / "r.duckdb"), "--show-skipped"])
    assert result.exit_code == 0, result.output
    assert "documents: 5 read = 2 processed + 0 empty + 3 skipped" in result.stderr
    con = duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True)
    reason = "not read: a Parquet dataset leaves out names starting with . or _"
    assert con.execute("select source, reason from skipped order by source").fetchall() == [
        (f"{dataset}/.hidden.parquet", reason),
        (f"{dataset}/_part.parquet", reason),
        (f"{dataset}/_temporary/0/c.parquet", reason),
    ]


def write_dataset(root: Path, parts: dict[str, dict[str, pa.Array | list]]) -> Path:
    for name, columns in parts.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table(columns), root / name)
    return root


# Parquet datasets whose parts the engines read otherwise (pyarrow as the first part's schema, Spark
# as one it picks): documents read apart, rows dropped unsaid on Spark, or a traceback
DISAGREEING_DATASETS = {
    "a part without the id column": (
        {"a.parquet": {"id": [1], "text": [TEXT]}, "b.parquet": {"text": [TEXT + "!"]}},
        "{d}: its part files disagree on column 'id': int64 in {d}/a.parquet, absent in {d}/b.parquet "
        "(write the parts with one schema)",
    ),
    "text of another type": (
        {"a.parquet": {"text": [TEXT]}, "b.parquet": {"text": pa.array([b"x"], pa.binary())}},
        "{d}: its part files disagree on column 'text': string in {d}/a.parquet, binary in {d}/b.parquet "
        "(write the parts with one schema)",
    ),
    "a column dedup does not read, of two types": (  # pyarrow: "Failed to parse string"; Spark read it
        {"a.parquet": {"text": [TEXT], "other": [1.5]}, "b.parquet": {"text": [TEXT], "other": ["x"]}},
        "{d}: its part files disagree on column 'other': double in {d}/a.parquet, string in {d}/b.parquet "
        "(write the parts with one schema)",
    ),
    "parts under other partition folders": (
        {"b.parquet": {"text": [TEXT]}, "k=1/a.parquet": {"text": [TEXT]}},
        "{d}: its part files lie under different partition folders (none for {d}/b.parquet, k for "
        "{d}/k=1/a.parquet): write them with one partitioning",
    ),
    "a partition key that is also a column": (  # pyarrow: "Unable to merge: Field k has incompatible types"
        {"k=1/a.parquet": {"text": [TEXT], "k": ["2"]}},
        "{d}: {d}/k=1/a.parquet has a column 'k' and lies in a partition folder of that name: which value "
        "is meant? (rename the column, or the folder)",
    ),
}


@pytest.mark.parametrize("case", DISAGREEING_DATASETS)
def test_a_dataset_whose_parts_the_engines_read_otherwise_is_refused(tmp_path, case):
    parts, message = DISAGREEING_DATASETS[case]
    dataset = write_dataset(tmp_path / "docs", parts)
    result = runner.invoke(app, ["run", str(dataset)])
    assert result.exit_code == 1, result.output
    assert result.stderr == "Error: " + message.format(d=dataset) + "\n"


@pytest.mark.slow
def test_spark_refuses_the_same_datasets(tmp_path, spark):
    """Spark read them: the part without an id as rows numbered 1.. beside ids (or dropped 4 rows
    of 7 unsaid, when parts lay under other partition folders); the check runs on its driver too,
    and names the parts as the input was given, as DuckDB does (it named them by the path its file
    system resolved: here without the `x/..`)."""
    (tmp_path / "x").mkdir()
    for i, (parts, message) in enumerate(DISAGREEING_DATASETS.values()):
        write_dataset(tmp_path / f"docs{i}", parts)
        given = f"{tmp_path}/x/../docs{i}"
        for engine in (["--engine", "duckdb"], ["--engine", "spark", "--work-dir", str(tmp_path / "w")]):
            result = runner.invoke(app, ["run", given, *engine])
            assert result.exit_code == 1, result.output
            assert result.stderr.splitlines()[-1] == "Error: " + message.format(d=given)


def test_dataset_parts_of_string_types_that_read_alike_are_one_table(tmp_path):
    """string, large_string and a dictionary of strings are read alike by both engines: not refused;
    nor is a file in a plain subfolder, or a column that dedup does not read missing from a part."""
    dataset = write_dataset(
        tmp_path / "docs",
        {
            "a.parquet": {"text": pa.array([TEXT], pa.string()), "other": [1.5]},
            "b.parquet": {"text": pa.array([TEXT + "!"], pa.large_string())},
            "sub/c.parquet": {"text": pa.array([TEXT + "?"]).dictionary_encode(), "other": [2.5]},
        },
    )
    result = runner.invoke(app, ["run", str(dataset), "-t", "0.5", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert "documents: 3 read = 3 processed" in result.stderr and len(result.stdout.splitlines()) == 4


def test_a_file_that_is_not_parquet_in_a_parquet_folder_is_one_line(tmp_path):
    dataset = write_dataset(tmp_path / "docs.parquet", {"a.parquet": {"text": [TEXT]}})
    (dataset / "notes.txt").write_text("notes")
    result = runner.invoke(app, ["run", str(dataset)])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"Error: cannot read table {dataset}: {dataset}/notes.txt: Parquet file size is 5")
    assert result.stderr.count("\n") == 1


# -- options -----------------------------------------------------------------------------------

SHINGLE_SIZE = "--shingle-size must be between 1 and 1,000 (the longest repetition DuckDB's regular expressions allow)"
NUM_PERM = "--num-perm must be between 1 and 1,024 (a signature is one SQL column per permutation)"


@pytest.mark.parametrize(
    ("options", "code", "message"),
    [
        (["-t", "1.5"], 2, "--threshold must be between 0 and 1, got 1.5"),
        (["-t", "-0.1"], 2, "--threshold must be between 0 and 1, got -0.1"),
        (["-k", "0"], 2, f"{SHINGLE_SIZE}, got 0"),
        (["-k", "1001"], 2, f"{SHINGLE_SIZE}, got 1,001"),  # was DuckDB's `invalid repetition size`, exit 1
        (["--num-perm", "0"], 2, f"{NUM_PERM}, got 0"),
        (["--num-perm", "16384"], 2, f"{NUM_PERM}, got 16,384"),  # ran for hours
        (["--bands", "5", "--rows", "5"], 2, "--bands 5 x --rows 5 = 25, but --num-perm is 128"),
        (["--memory-limit", "lots"], 2, "--memory-limit must be a size such as 500MB or 2GB, got 'lots'"),
        (["--threads", "0"], 2, "--threads must be between 1 and 256, got 0"),
        (["--threads", "100000"], 2, "--threads must be between 1 and 256, got 100,000"),  # hung
        (
            ["-o", "{tmp}/out.xyz"],
            2,
            "cannot tell the output format of {tmp}/out.xyz: use one of .csv, .jsonl, .ndjson, .parquet "
            "(the text ones also .gz, .zst), "
            "or give --format csv or jsonl",
        ),
        (["--db", "{tmp}/missing/run.duckdb"], 2, "folder of the database does not exist: {tmp}/missing"),
        (
            ["--db", "{tmp}/notes.txt"],
            2,
            "{tmp}/notes.txt exists but is not a DuckDB database; give a new file or a database made by dedup",
        ),
        (
            ["--db", "{tmp}/corpus/copy.txt"],
            2,
            "--db {tmp}/corpus/copy.txt is inside the input folder {tmp}/corpus: every run would list it among the "
            "inputs, so none could resume; keep it elsewhere",
        ),
        (["--db", "{tmp}"], 2, "the database path is a folder: {tmp}"),
        (["--db", "/"], 2, "the database path is a folder: /"),  # a path without a name: a traceback
        (["--db", ""], 2, "the database path is a folder: ."),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path, tiny_corpus, options, code, message):
    options = [o.replace("{tmp}", str(tmp_path)) for o in options]
    (tmp_path / "notes.txt").write_text("a file of the user's")
    before = (tiny_corpus / "copy.txt").read_bytes()
    result = runner.invoke(app, ["run", str(tiny_corpus), *options])
    assert result.exit_code == code
    assert result.stderr == f"Error: {message.replace('{tmp}', str(tmp_path))}\n"
    assert (tiny_corpus / "copy.txt").read_bytes() == before
    assert (tmp_path / "notes.txt").read_text() == "a file of the user's"  # a non-DuckDB --db is never overwritten


@pytest.mark.parametrize("target", ["docs.csv", "folder/old.csv"])
@pytest.mark.parametrize("option", ["--output", "--export"])
def test_a_result_file_that_is_an_input_is_refused_before_it_is_overwritten(tmp_path, target, option):
    (tmp_path / "folder").mkdir()
    (tmp_path / "docs.csv").write_text(f"id,text\na,{TEXT}\nb,{TEXT}\n")
    (tmp_path / "folder" / "old.csv").write_text(TEXT)
    before = (tmp_path / target).read_bytes()
    value = str(tmp_path / target) if option == "--output" else f"pairs={tmp_path / target}"
    source = tmp_path / target.split("/")[0]
    result = runner.invoke(app, ["run", str(source), "-q", option, value])
    assert result.exit_code == 2
    assert (
        result.stderr == f"Error: {option} {tmp_path / target} would overwrite the input {source}: write it elsewhere\n"
    )
    assert (tmp_path / target).read_bytes() == before


@pytest.mark.parametrize("option", ["--db", "--temp-dir"])
def test_a_database_or_spill_folder_inside_an_input_folder_is_refused(tmp_path, option):
    """`dedup run corpus --db corpus/run.duckdb`: every later run listed the database among its
    inputs (a binary file, skipped), so its inputs never matched the run before (nothing resumed),
    and --write-deduplicated saw the input change during the run and refused the copy, run after
    run, with the advice to run again. Refused before anything is read."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT)
    for path, where in ((folder / "run.duckdb", "is inside the input folder"), (folder, "is the input folder")):
        result = runner.invoke(app, ["run", str(folder), "-q", option, str(path)])
        assert result.exit_code == 2
        assert result.stderr == (
            f"Error: {option} {path} {where} {folder}: every run would list it among the inputs, so none could "
            "resume; keep it elsewhere\n"
        )
        assert sorted(p.name for p in folder.iterdir()) == ["a.txt"]


@pytest.mark.parametrize("option", ["--output", "--export"])
def test_a_result_file_that_is_the_ids_file_is_refused(tmp_path, option):
    """`--lines docs.txt --ids ids.csv -o ids.csv` replaced the ids file, an input of the run, with
    the pairs: the names of the documents were lost. Refused now, the ids file unchanged."""
    docs, ids = tmp_path / "docs.txt", tmp_path / "ids.csv"
    docs.write_text(f"{TEXT}\n{TEXT}!\n")
    ids.write_text("a\nb\n")
    value = str(ids) if option == "--output" else f"pairs={ids}"
    result = runner.invoke(app, ["run", str(docs), "--lines", "--ids", str(ids), "-q", option, value])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {option} {ids} would overwrite the input {ids}: write it elsewhere\n"
    assert ids.read_text() == "a\nb\n"


@pytest.mark.parametrize("option", ["--output", "--export"])
def test_a_new_result_file_inside_an_input_folder_is_refused(tmp_path, option):
    """Written there, the next run of the same command read it as a document (a pairs CSV among the
    texts), or refused it as an input it would overwrite: the first run now says so."""
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT)
    (tmp_path / "link").symlink_to(folder)
    for target in (folder / "pairs.csv", tmp_path / "link" / "pairs.csv"):
        value = str(target) if option == "--output" else f"pairs={target}"
        result = runner.invoke(app, ["run", str(folder), "-q", option, value])
        assert result.exit_code == 2
        assert result.stderr == (
            f"Error: {option} {target} is inside the input folder {folder}: the next run would read it as a "
            "document; write it elsewhere\n"
        )
        assert sorted(p.name for p in folder.iterdir()) == ["a.txt"]
