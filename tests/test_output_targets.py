"""Where outputs go: never onto what a command works on (an output on the database path, on another
index, or on another output of the same run is refused before any work; `dedup sql` reads its
database and nothing else); written under a temporary name and renamed once complete, through a
symlink to its target; deep folders, dangling symlinks, pipes and folders that cannot be written
are one-line errors or work, never tracebacks; ids with control characters shown escaped."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest
from conftest import REPO
from typer.testing import CliRunner

import dedup
from dedup.cli import app
from dedup.errors import UsageError
from dedup.output import replacing, write_table

runner = CliRunner()
CLOUGH = Path(__file__).resolve().parent.parent / "data" / "clough"


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def opens(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("select count(*) from documents").fetchone()[0]


@pytest.fixture
def index(tmp_path: Path) -> Path:
    db = tmp_path / "index.duckdb"
    result = invoke("run", CLOUGH, "--db", db, "-q")
    assert result.exit_code == 0, result.output
    return db


def test_output_on_a_new_database_path_is_refused_before_the_run(tmp_path: Path) -> None:
    target = tmp_path / "x.parquet"
    result = invoke("run", CLOUGH, "--db", target, "-o", target)
    assert result.exit_code == 2
    assert "is the database" in result.output
    assert not target.exists()


def test_output_on_the_kept_database_is_refused_and_the_database_still_opens(index: Path) -> None:
    for args in (["-o", index], ["--export", f"pairs={index}"]):
        renamed = index.with_suffix(".csv")
        index.rename(renamed)  # the database under an output's name, as the battery had it
        result_pairs = [a.replace(str(index), str(renamed)) for a in map(str, args)]
        result = invoke("run", CLOUGH, "--db", renamed, *result_pairs)
        assert result.exit_code == 2, result.output
        assert "is the database" in result.output
        assert opens(renamed) == 100
        renamed.rename(index)


def test_export_onto_its_own_database_is_refused(index: Path) -> None:
    renamed = index.with_name("z.csv")
    index.rename(renamed)
    result = invoke("export", renamed, "--what", "pairs", "--output", renamed)
    assert result.exit_code == 2
    assert "is the database" in result.output
    assert opens(renamed) == 100


def test_export_and_report_never_replace_what_the_runs_read(tmp_path: Path) -> None:
    """`dedup export DB -o docs.csv` replaced docs.csv, the run's input, with the pairs (the run
    refuses that for -o; export and report did not know the inputs). The database now keeps what its
    runs and `dedup add` read (`run_inputs`), and the commands that write beside it refuse those
    files and anything inside those folders, before writing, leaving them as they were."""
    table = tmp_path / "docs.csv"
    table.write_text(
        "id,text\n1,the quick brown fox jumps over the lazy dog\n2,the quick brown fox jumps over the lazy dog\n"
    )
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "a.txt").write_text("a third document, not like the others at all")
    db = tmp_path / "run.duckdb"
    assert invoke("run", table, "--db", db, "-q").exit_code == 0
    assert invoke("add", db, folder).exit_code == 0
    before = table.read_bytes()
    for args, shown in (
        (["export", db, "--what", "pairs", "-o", table], f"would overwrite the input {table}"),
        (["export", db, "--what", "survivors", "-o", folder / "kept.csv"], f"is inside the input folder {folder}"),
        (["report", db, "-o", folder / "report.html"], f"is inside the input folder {folder}"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, result.output
        assert shown in result.stderr
    assert table.read_bytes() == before and [p.name for p in folder.iterdir()] == ["a.txt"]
    with pytest.raises(UsageError, match="would overwrite the input"):
        dedup.Index(db).export("pairs", table)
    assert table.read_bytes() == before
    assert invoke("export", db, "--what", "pairs", "-o", tmp_path / "pairs.csv").exit_code == 0


def test_documents_in_memory_record_no_input(tmp_path: Path) -> None:
    """Their placeholder name is not a path a later export must avoid."""
    db = tmp_path / "memory.duckdb"
    dedup.run(documents=["a b c d e f g h", "a b c d e f g h"], db=db)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(*) from run_inputs").fetchone() == (0,)


def test_an_output_never_replaces_another_index(index: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.parquet"
    index.rename(other)
    for args in (["run", CLOUGH, "-o", other], ["run", CLOUGH, "--export", f"clusters={other}"]):
        result = invoke(*args)
        assert result.exit_code == 2, result.output
        assert "is a DuckDB database" in result.output
    assert opens(other) == 100


def test_a_database_on_another_database_s_log_is_refused(index: Path) -> None:
    """--db index.duckdb.wal made a database where DuckDB looks for index.duckdb's write-ahead log,
    which it replays into index.duckdb when it opens it. Refused before the run."""
    log = index.with_name(index.name + ".wal")
    result = invoke("run", CLOUGH, "--db", log)
    assert result.exit_code == 2, result.output
    assert (
        result.stderr
        == f"Error: {log} is the write-ahead log of the database {index}: give the database, or a new file\n"
    )
    assert not log.exists() and opens(index) == 100


def test_two_outputs_to_one_file_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "p.csv"
    result = invoke("run", CLOUGH, "-o", out, "--export", f"pairs={out}")
    assert result.exit_code == 2
    assert "both name" in result.output


def test_an_output_that_is_a_folder_is_refused_before_the_run(tmp_path: Path, index: Path) -> None:
    """A folder named like a table (a Parquet dataset `x.parquet/`) as --output or --export: the
    run did all its work, then stopped on "Is a directory" (exit 1); now refused before it starts,
    and the folder is left as it was."""
    folder = tmp_path / "dataset.parquet"
    folder.mkdir()
    (folder / "part-0.parquet").write_bytes(b"keep")
    for args, kind in (
        (["run", CLOUGH, "-q", "--db", tmp_path / "new.duckdb", "-o", folder], "output"),
        (["run", CLOUGH, "-q", "--db", tmp_path / "new.duckdb", "--export", f"pairs={folder}"], "export"),
        (["export", index, "--what", "pairs", "-o", folder], "export"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"Error: the {kind} {folder} is a folder: name a file\n"
        assert not (tmp_path / "new.duckdb").exists()
        assert [p.name for p in folder.iterdir()] == ["part-0.parquet"]


def test_write_deduplicated_to_a_dangling_symlink_is_refused_before_the_run(tmp_path: Path) -> None:
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "nowhere")
    result = invoke("run", CLOUGH, "--write-deduplicated", link)
    assert result.exit_code == 2
    assert "is a symlink" in result.output
    assert "Traceback" not in result.output


def test_write_deduplicated_inside_the_input_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("one two three four five six")
    result = invoke("run", folder, "--write-deduplicated", folder / "deduplicated")
    assert result.exit_code == 2
    assert result.stderr == (  # the rule and the words of --output and --export
        f"Error: --write-deduplicated {folder / 'deduplicated'} is inside the input folder {folder}: the next run "
        "would read it as a document; write it elsewhere\n"
    )


def test_a_folder_1500_levels_deep_is_read(tmp_path: Path) -> None:
    root = tmp_path / "deep"
    deepest = root
    for _ in range(1501):  # os.makedirs recurses once per level too
        deepest.mkdir()
        deepest = deepest / "d"
    deepest = deepest.parent
    (deepest / "a.txt").write_text("the quick brown fox jumps over the lazy dog")
    (deepest / "b.txt").write_text("the quick brown fox jumps over the lazy dog")
    (root / "c.parquet").mkdir()  # a folder named like a table beside: walked too
    try:
        result = invoke("run", root, "-k", "3", "--format", "csv")
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        assert result.stdout.count("\n") == 2  # the header and the one pair
    finally:  # pytest's own cleanup (shutil.rmtree) recurses once per level too
        for name in ("a.txt", "b.txt"):
            (deepest / name).unlink()
        while deepest != root:
            deepest.rmdir()
            deepest = deepest.parent


def test_a_failed_write_leaves_the_old_file_and_no_partial_one(tmp_path: Path) -> None:
    import pyarrow as pa

    out = tmp_path / "p.csv"
    out.write_text("old\n")

    class Boom(Exception):
        pass

    with pytest.raises(Boom), replacing(out) as target:
        target.write_text("half")
        raise Boom
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]
    write_table(pa.table({"a": [1]}), out)
    assert out.read_text() == "a\n1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]


def test_an_output_through_a_symlink_replaces_the_target_not_the_link(tmp_path: Path) -> None:
    import pyarrow as pa

    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    write_table(pa.table({"a": [2]}), link)
    assert link.is_symlink()
    assert real.read_text() == "a\n2\n"


ESCAPES = [
    "copy pairs to '{out}/copy.csv'",
    "copy (select 1) to '{other}'",
    "export database '{out}/exported'",
    "import database '{out}/exported'",
    "select * from read_text('/etc/hostname')",
    "select * from read_csv('/etc/hostname')",
    "select * from read_blob('{other}')",
    "select * from glob('/etc/*')",
    "attach '{other}' as other",
    "attach '{out}/new.duckdb' as new",
    "install httpfs",
    "load httpfs",
    "set enable_external_access = true",
    "reset enable_external_access",
    "set temp_directory = '{out}'",
    "set profiling_output = '{out}/profile.txt'",
    "create table written as select 1",
    "drop table pairs",
    "delete from documents",
    "create secret leaked (type s3)",
]


@pytest.mark.parametrize("statement", ESCAPES)
def test_dedup_sql_reads_its_database_and_nothing_else(index: Path, tmp_path: Path, statement: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("create table kept as select 42 as answer")
    before = other.read_bytes()
    result = invoke("sql", index, statement.format(out=out, other=other))
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ")
    assert "Traceback" not in result.output
    assert list(out.iterdir()) == []
    assert other.read_bytes() == before
    assert opens(index) == 100


def test_dedup_sql_still_answers_queries_and_temporary_tables(index: Path) -> None:
    result = invoke(
        "sql", index, "create temp table t as select count(*) n from pairs; select n from t", "--format", "csv"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "n"


def test_a_device_given_as_input_is_refused() -> None:
    """Item 5: `dedup run /dev/zero` read until memory ran out (MemoryError traceback)."""
    result = invoke("run", "/dev/zero")
    assert result.exit_code == 2
    assert (
        result.stderr == "Error: input /dev/zero is a device, not a file or folder: give files, folders, tables or -\n"
    )


def test_a_named_pipe_is_read_as_a_file(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    text = "the quick brown fox jumps over the lazy dog\n" * 2 + "something else entirely\n"
    writer = threading.Thread(target=fifo.write_text, args=(text,))
    writer.start()
    result = invoke("run", fifo, "--lines", "-k", "3", "--format", "csv")
    writer.join()
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("1,2,1.0")


def test_control_characters_in_ids_are_escaped_in_table_output(tmp_path: Path) -> None:
    """An id holding an OSC sequence (ESC ] 0 ; title BEL) retitled the terminal."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = tmp_path / "docs.parquet"
    text = "the quick brown fox jumps over the lazy dog"
    pq.write_table(pa.table({"id": ["\x1b]0;pwned\x07", "b\x9bc"], "text": [text, text]}), table)
    result = invoke("run", table, "-k", "3")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\x9b" not in result.stdout
    assert "\\x1b]0;pwned\\x07" in result.stdout and "b\\x9bc" in result.stdout
    csv = invoke("run", table, "-k", "3", "--format", "csv")
    assert "\x1b]0;pwned\x07" in csv.stdout  # a file format keeps the id as it is


def test_write_deduplicated_of_a_named_pipe_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """The copy reads its input a second time: a named pipe (`<(zcat docs.gz)`) is empty by then,
    and the copy was written empty, every document lost, with exit 0."""
    import subprocess
    import sys
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_text, args=("one two three\none two three\nfour five\n",))
    writer.start()
    out = tmp_path / "deduplicated.txt"
    command = [sys.executable, "-m", "dedup", "run", pipe, "--lines", "-k", "1", "--write-deduplicated", out]
    result = subprocess.run([str(a) for a in command], capture_output=True, text=True, timeout=120)
    if writer.is_alive():  # refused unread: release the writer
        pipe.read_text()
    writer.join(timeout=10)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"Error: --write-deduplicated writes a copy of a file or folder, not of the named pipe {pipe}: "
        "write its content to a file and give that\n"
    )
    assert not out.exists()


@pytest.mark.parametrize(
    "option",
    ["-o", "--export", "export -o", "report -o", "--db", "--temp-dir", "--write-deduplicated", "input", "api export"],
)
def test_a_loop_of_symbolic_links_is_refused_in_one_line(tmp_path, option):
    """A link to itself named as an output, the database or the spill folder was a traceback
    (RuntimeError: Symlink loop from ...); as the only input, a run that read nothing and exit 0."""
    from typer.testing import CliRunner

    import dedup
    from dedup.cli import app

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("the quick brown fox jumps over the lazy dog")
    db = tmp_path / "index.duckdb"
    dedup.run(corpus, db=db)
    loop = tmp_path / ("loop.html" if option == "report -o" else "loop.csv")
    loop.symlink_to(loop.name)
    if option == "api export":
        with pytest.raises(dedup.api.UsageError, match="is a loop of symbolic links"):
            dedup.Index(db).export("pairs", loop)
        return
    args = {
        "-o": ["run", str(corpus), "-o", str(loop)],
        "--export": ["run", str(corpus), "--export", f"pairs={loop}"],
        "export -o": ["export", str(db), "--what", "pairs", "-o", str(loop)],
        "report -o": ["report", str(db), "-o", str(loop)],
        "--db": ["run", str(corpus), "--db", str(loop)],
        "--temp-dir": ["run", str(corpus), "--temp-dir", str(loop)],
        "--write-deduplicated": ["run", str(corpus), "--write-deduplicated", str(loop)],
        "input": ["run", str(loop)],
    }[option]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "is a loop of symbolic links" in result.stderr


def test_invisible_format_characters_in_ids_are_shown_escaped_on_a_terminal(tmp_path):
    """A bidi override printed raw showed an id reversed, and a zero-width space made two ids look
    the same; a terminal table escapes them as it escapes control characters. Files keep them."""
    from typer.testing import CliRunner

    import dedup
    from dedup.cli import app

    text = "the quick brown fox jumps over the lazy dog"
    ids = ["evil\u202eexe.txt", "a\u200bb", "plain"]
    db = tmp_path / "index.duckdb"
    dedup.run(documents=list(zip(ids, [text, text, text], strict=True)), db=db, threshold=0.5)
    shown = CliRunner().invoke(app, ["clusters", str(db)]).stdout
    assert "evil\\u202eexe.txt" in shown and "a\\u200bb" in shown
    assert "\u202e" not in shown and "\u200b" not in shown
    exported = tmp_path / "pairs.csv"
    CliRunner().invoke(app, ["export", str(db), "--what", "pairs", "-o", str(exported)])
    assert "evil\u202eexe.txt" in exported.read_text()


@pytest.mark.parametrize("option", ["-o", "--export", "--write-deduplicated", "report -o"])
def test_an_output_in_a_folder_that_cannot_be_written_is_refused_before_the_run(tmp_path, option):
    """An output in a read-only folder failed only after the whole run, naming the hidden
    .dedup-part file. /sys takes no new file, even from root (for whom permission bits say yes)."""
    from typer.testing import CliRunner

    import dedup
    from dedup.cli import app

    assert Path("/sys").is_dir()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("the quick brown fox jumps over the lazy dog")
    db = tmp_path / "index.duckdb"
    dedup.run(corpus, db=db)
    args = {
        "-o": ["run", str(corpus), "-o", "/sys/pairs.csv"],
        "--export": ["run", str(corpus), "--export", "survivors=/sys/kept.csv"],
        "--write-deduplicated": ["run", str(corpus), "--write-deduplicated", "/sys/copy"],
        "report -o": ["report", str(db), "-o", "/sys/report.html"],
    }[option]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "its folder /sys is not writable" in result.stderr and ".dedup-part" not in result.stderr
    assert "finished" not in result.stderr  # refused before any stage ran


def test_an_output_named_without_a_known_suffix_takes_format(tmp_path):
    """`-o /dev/null` was "cannot tell the output format": a name without a suffix dedup knows is
    written in --format (csv or jsonl), and refused in one line without it; a known suffix wins."""
    clough = str(REPO / "data" / "clough")
    done = runner.invoke(app, ["run", clough, "-q", "-o", "/dev/null", "--format", "csv"])
    assert done.exit_code == 0, done.output
    named = tmp_path / "pairs.out"
    done = runner.invoke(app, ["run", clough, "-q", "-o", str(named), "--format", "jsonl"])
    assert done.exit_code == 0, done.output
    assert json.loads(named.read_text().splitlines()[0])["id_a"] == "g0pE_taska.txt"
    done = runner.invoke(app, ["run", clough, "-q", "-o", str(tmp_path / "p.csv"), "--format", "jsonl"])
    assert done.exit_code == 0 and (tmp_path / "p.csv").read_text().startswith("id_a,id_b,jaccard,estimate\n")
    done = runner.invoke(app, ["run", clough, "-q", "-o", str(named)])
    assert done.exit_code == 2 and done.stderr.endswith(", or give --format csv or jsonl\n"), done.output
