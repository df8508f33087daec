"""Each input is a value of its kind (dedup.corpus.kinds): detected once, by the same rules on this
machine and through an engine's listing, and copied back by its own rules; and read as the user
meant it: a kind that reads otherwise than the name suggests (one document of many lines, a .json
file of JSON lines, --lines on a binary file, column options without a table) is said or refused."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app
from dedup.corpus.folders import HIDDEN_FILE, HIDDEN_FOLDER
from dedup.corpus.kinds import Folder, LinesFile, Listing, Stdin, Table, TextFile, input_kind
from dedup.corpus.spark_plans import UNDERSCORE_NAME, SparkPlace, unlisted_reason
from dedup.errors import InputError, UsageError
from dedup.formats import Format
from dedup.settings import Reading

TEXT = "the quick brown fox jumps over the lazy dog, again and again"


def make_inputs(root: Path) -> dict[str, Path]:
    """One input of every kind a path can be, and the names that look like one kind but are another."""
    paths = {name: root / name for name in ("docs.csv", "docs.tsv.gz", "docs.jsonl", "notes.txt", "Upper.PARQUET")}
    paths["docs.csv"].write_text("id,text\n1,a\n")
    paths["docs.tsv.gz"].write_bytes(b"")
    paths["docs.jsonl"].write_text('{"text": "a"}\n')
    paths["notes.txt"].write_text("a\nb\n")
    pq.write_table(pa.table({"text": ["a"]}), paths["Upper.PARQUET"])
    for folder in ("dataset", "named.parquet", "texts", "empty", "mixed"):
        paths[folder] = root / folder
        paths[folder].mkdir()
    pq.write_table(pa.table({"text": ["a"]}), paths["dataset"] / "part-0.parquet")
    (paths["dataset"] / "_SUCCESS").write_text("")  # a Spark job's marker is not a part
    (paths["texts"] / "a.txt").write_text("a")
    (paths["mixed"] / "a.parquet").write_bytes(b"")
    (paths["mixed"] / "b.txt").write_text("b")
    paths["parquet.gz"] = root / "old.parquet.gz"  # Parquet is never gzipped: a text file
    paths["parquet.gz"].write_bytes(b"x")
    return paths


EXPECTED = {
    "docs.csv": Table,
    "docs.tsv.gz": Table,
    "docs.jsonl": Table,
    "notes.txt": TextFile,
    "Upper.PARQUET": Table,
    "dataset": Table,
    "named.parquet": Table,
    "texts": Folder,
    "empty": Folder,
    "mixed": Folder,
    "parquet.gz": TextFile,
}


def test_every_kind_is_detected_by_its_rules(tmp_path):
    paths = make_inputs(tmp_path)
    kinds = {name: input_kind(path, lines=False) for name, path in paths.items()}
    assert {name: type(kind) for name, kind in kinds.items()} == EXPECTED
    assert kinds["docs.tsv.gz"] == Table(paths["docs.tsv.gz"], Format.tsv)
    assert kinds["dataset"] == Table(paths["dataset"], Format.parquet)
    assert input_kind(Path("-"), lines=False) == Stdin(Path("-"))
    # --lines reads every file as lines, a table too; a folder stays a folder
    assert input_kind(paths["docs.csv"], lines=True) == LinesFile(paths["docs.csv"])
    assert input_kind(paths["texts"], lines=True) == Folder(paths["texts"])


def test_an_engines_listing_detects_as_this_machine_does(tmp_path):
    """Spark detects a path on HDFS through its own listing: the same kinds as a local path."""
    paths = make_inputs(tmp_path)
    listed: list[Path] = []

    def listing(path: Path) -> Listing:  # as Spark's file system answers
        def names_below() -> list[str]:
            listed.append(path)
            return sorted(found.name for found in path.rglob("*") if found.is_file())

        return Listing(path.is_dir(), names_below)

    for name, path in paths.items():
        assert input_kind(path, lines=False, listing=listing(path)) == input_kind(path, lines=False), name
    assert paths["named.parquet"] not in listed  # its name says it: never listed


def test_a_folder_given_with_lines_is_copied_without_its_dropped_files(tmp_path):
    """--lines reads files given alone as lines; a folder's files are still its documents, and its
    copy drops them by name (it dropped by line number, which no file has: every copy was kept)."""
    folder = tmp_path / "texts"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(TEXT)
    (folder / "other.txt").write_text("nothing like the others at all, not one word in common here")
    out = tmp_path / "copy"
    result = CliRunner().invoke(app, ["run", str(folder), "--lines", "--write-deduplicated", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in out.iterdir()) == ["a.txt", "other.txt"]


@pytest.mark.parametrize("line_end", ["\n", "\r"])
def test_spark_readers_are_data(tmp_path, line_end):
    """What Spark's readers are given is decided here, with no Spark: the CSV's separator and line
    break, JSON without single quotes; a format Spark has no reader of has none."""
    (tmp_path / "a.jsonl").write_text('{"text": "a"}\n')
    csv = spark_plan(Table(tmp_path / "a.tsv", Format.tsv))
    reader = csv.reader(line_end)
    assert reader.name == "csv"
    assert reader.options["sep"] == "\t" and reader.options["lineSep"] == line_end
    assert "lineSep" not in csv.reader("\r\n").options
    json = spark_plan(Table(tmp_path / "a.jsonl", Format.jsonl)).reader()
    assert json.options == {"allowSingleQuotes": "false"} and json.corrupt_column == "_corrupt_record"
    assert spark_plan(LinesFile(tmp_path / "a.txt")).reader(line_end).options == {"lineSep": line_end}


def spark_plan(kind, is_dir: bool = False, prefix: str = ""):
    """The plan a kind gives Spark for an input on this machine."""
    place = SparkPlace(str(kind.path), str(kind.path), is_dir, prefix)
    return kind.spark_plan(place, default_reading())


def test_each_kind_gives_spark_one_plan_which_calls_its_reader_back(tmp_path):
    """Spark's reader never asks a kind its class: each kind's plan calls the reader it is for."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("a")
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "t.csv").write_text("text\na\n")

    class Reads:
        def files(self, plan):
            return ("files", plan.folder)

        def lines(self, plan):
            return ("lines", None)

        def table(self, plan):
            return ("table", plan.separator)

    kinds = {
        Folder(tmp_path / "docs"): (("files", True), False),
        TextFile(tmp_path / "a.txt"): (("files", False), False),
        LinesFile(tmp_path / "a.txt"): (("lines", None), True),
        Table(tmp_path / "t.csv", Format.csv): (("table", ","), True),
    }
    for kind, (read, numbered) in kinds.items():
        plan = spark_plan(kind, is_dir=kind.path.is_dir())
        assert plan.read_by(Reads()) == read, kind
        assert plan.row_numbered is numbered, kind
    with pytest.raises(UsageError, match="folder of csv shards"):
        spark_plan(Table(tmp_path / "docs", Format.csv), is_dir=True)
    (tmp_path / "docs" / "part-0.jsonl").write_text('{"text": "a"}\n')
    with pytest.raises(UsageError, match="folder of jsonl shards"):  # refused before a line is checked
        spark_plan(Table(tmp_path / "docs", Format.jsonl), is_dir=True)


def default_reading() -> Reading:
    return Reading(inputs=(Path("."),))


def test_a_folders_spark_plan_reads_what_the_duckdb_engine_reads(tmp_path):
    """Spark's own listing follows folder links and leaves out names starting with _: the plan a
    folder gives it lists whole only the folders with nothing such below them, names the other
    files one by one, and skips with a reason what Spark cannot read; no file is read twice or lost."""
    root = tmp_path / "docs"
    (root / "plain" / "deep").mkdir(parents=True)
    (root / "mixed").mkdir()
    (root / "plain" / "a.txt").write_text("a")
    (root / "plain" / "deep" / "b.txt").write_text("b")
    (root / "mixed" / "c.txt").write_text("c")
    (root / "mixed" / "_d.txt").write_text("d")  # Spark's listing would leave it out
    (root / "mixed" / "loop").symlink_to(root)  # Spark's listing would follow it
    (root / "empty.txt").write_bytes(b"")
    (root / ".hidden").write_text("h")
    plan = spark_plan(input_kind(root, lines=False), is_dir=True).listing
    assert sorted(plan.loads) == sorted([str(root / "plain"), str(root / "mixed" / "c.txt"), str(root / "empty.txt")])
    assert plan.empty == ["empty.txt"]
    assert sorted(reason for _, reason in plan.skipped) == sorted(
        ["hidden file", "not read by the Spark engine (a name starting with _)", "symlink to a folder (not followed)"]
    )


def run_cli(*args: object):
    return CliRunner().invoke(app, ["run", *(str(a) for a in args)])


def test_a_single_file_of_many_lines_says_that_it_is_one_document(tmp_path):
    path = tmp_path / "tweets.txt"
    rng = random.Random(5)
    words = ["".join(rng.choice("abcdefghij") for _ in range(6)) for _ in range(500)]
    path.write_text("".join(" ".join(rng.choices(words, k=8)) + "\n" for _ in range(5801)), encoding="utf-8")
    result = run_cli(path)
    assert result.exit_code == 0
    assert "1 document from" in result.stderr and "5,801 lines" in result.stderr and "--lines" in result.stderr
    # with --lines there is nothing to say
    assert "5,801 lines" not in run_cli(path, "--lines", "-o", tmp_path / "p.csv").stderr
    # a short file, or a file in a folder, is a document as meant
    (tmp_path / "short.txt").write_text("one line\nand another\n", encoding="utf-8")
    assert "note:" not in run_cli(tmp_path / "short.txt").stderr


FOX = "the quick brown fox jumps over the lazy dog"


def test_lines_of_a_file_with_classic_mac_line_ends_are_split_at_cr_and_said(tmp_path):
    """A --lines file whose lines end in \\r alone (no \\n at all) was read as one document and 0 pairs."""
    path = tmp_path / "mac.txt"
    path.write_bytes(f"{FOX}\r{FOX}!\rsomething else entirely\r\rlast".encode())
    result = run_cli(path, "--lines", "--threshold", "0.5", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("1,2,")
    assert "5 read = 4 processed + 1 empty + 0 skipped" in result.stderr
    assert (
        f"note: {path}: no \\n in the file, so its lines were split at \\r (classic Mac OS line ends)" in result.stderr
    )
    out = tmp_path / "kept.txt"
    result = run_cli(path, "--lines", "--threshold", "0.5", "-q", "--write-deduplicated", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == f"{FOX}\rsomething else entirely\r\rlast".encode()
    # one \\n anywhere and the lines are the \\n lines, as before (a \\r before a \\n is dropped)
    path.write_bytes(f"{FOX}\r{FOX}!\r\n{FOX}\n".encode())
    result = run_cli(path, "--lines", "--threshold", "0.5", "--format", "csv")
    assert "2 read = 2 processed" in result.stderr and "note:" not in result.stderr
    # without --lines, such a file of many lines is one document, and the note counts its lines
    path.write_bytes("".join(f"line {i} of an old file\r" for i in range(12)).encode())
    assert "a file of 12 lines: use --lines" in run_cli(path).stderr


def test_lines_on_a_binary_file_is_refused(tmp_path):
    table = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"text": ["a document", "another document"]}), table)
    result = run_cli(table, "--lines")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "binary" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("option", [("--id-column", "key"), ("--text-column", "body")])
def test_column_options_without_a_table_are_refused(tiny_corpus, tmp_path, option):
    result = run_cli(tiny_corpus, *option)
    assert result.exit_code == 2 and f"Error: {option[0]} applies to tables" in result.stderr
    lines = tmp_path / "lines.txt"
    lines.write_text("a\nb\n", encoding="utf-8")
    assert run_cli(lines, "--lines", *option).exit_code == 2
    # given for a table, they apply
    table = tmp_path / "t.parquet"
    pq.write_table(pa.table({"key": ["x", "y"], "body": ["some text", "other text"], "text": ["a", "b"]}), table)
    assert run_cli(table, *option).exit_code == 0


def test_a_folder_whose_files_were_all_skipped_says_so(tmp_path):
    folder = tmp_path / "binaries"
    folder.mkdir()
    for name in ("a.bin", "b.bin"):
        (folder / name).write_bytes(b"\x00\x01binary")
    result = run_cli(folder)
    assert result.exit_code == 0
    assert "warning: no document to compare: of 2 inputs, 2 were skipped" in result.stderr


def test_show_skipped_lists_each_input_once_and_names_db_only_when_there_is_one(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "text.txt").write_text("a text", encoding="utf-8")
    for i in range(12):
        (folder / f"b{i:02d}.bin").write_bytes(b"\x00binary")
    result = run_cli(folder, "--show-skipped")
    assert result.exit_code == 0
    for i in range(12):
        assert result.stderr.count(f"b{i:02d}.bin") == 1
    assert "--db" not in result.stderr
    with_db = run_cli(folder, "--db", tmp_path / "r.duckdb")
    assert "skipped table of --db" in with_db.stderr and "--show-skipped lists them all" in with_db.stderr


@pytest.mark.parametrize(
    "given",
    [
        ("c", "{tmp}/c"),
        ("c", "link"),
        ("{tmp}/c", "c/sub"),
        ("c/sub", "c"),
        ("t.csv", "{tmp}/t.csv"),
        ("c/a.txt", "link/a.txt"),
        ("c/a.txt", "hard.txt"),  # one file under two names, as `C` and `c` on a case-insensitive disk
    ],
)
def test_an_input_given_twice_or_inside_another_is_refused(tmp_path, monkeypatch, given):
    """`dedup run c /abs/c` (or c and a symlink to it, or c and c/sub spelled otherwise) read every
    document twice under two ids and gave each paired with itself at Jaccard 1, exit 0 (`c c` was
    refused as a duplicate id): acting on those pairs would delete the only copy of every file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c" / "sub").mkdir(parents=True)
    (tmp_path / "c" / "a.txt").write_text(FOX)
    (tmp_path / "c" / "sub" / "b.txt").write_text(FOX + "!")
    (tmp_path / "t.csv").write_text(f"id,text\n1,{FOX}\n2,something else\n")
    (tmp_path / "link").symlink_to(tmp_path / "c")
    (tmp_path / "hard.txt").hardlink_to(tmp_path / "c" / "a.txt")
    first, second = (name.format(tmp=tmp_path) for name in given)
    result = run_cli(first, second, "--threshold", "0.5")
    assert result.exit_code == 2, (result.stdout, result.stderr)
    message = result.stderr.strip()
    assert message.count("\n") == 0 and message.startswith("Error: "), message
    assert f"{first}" in message and f"{second}" in message and "twice" in message, message
    # inputs that only look alike are read
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text(FOX)
    assert run_cli("c", "d", "--threshold", "0.5").exit_code == 0


def test_a_json_file_given_alone_is_read_as_text_with_a_note_saying_how_to_read_it_as_a_table(tmp_path):
    """JSON lines are often named .json (Hugging Face datasets): `dedup run train.json` read the
    whole file as one document, found no pairs and said nothing but `1 read = 1 processed`."""
    path = tmp_path / "train.json"
    path.write_text("".join(f'{{"id": {i}, "text": "{FOX}"}}\n' for i in range(3)), encoding="utf-8")
    result = run_cli(path)
    assert result.exit_code == 0 and "1 read = 1 processed" in result.stderr
    assert (
        f"note: 1 document from {path}, read as text: name a JSON lines file .jsonl to read it as a table "
        "(a JSON array first through jq -c '.[]')" in result.stderr
    )
    renamed = path.rename(tmp_path / "train.jsonl")
    result = run_cli(renamed, "--threshold", "0.5")
    assert "3 read = 3 processed" in result.stderr and "note:" not in result.stderr


def test_spark_plans_check_on_the_driver_what_both_engines_refuse(tmp_path):
    """A --lines file that is binary, a CSV that Spark's reader would read otherwise: refused by the
    plan, before Spark reads anything; a CSV's own line break given to Spark's reader."""
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"PAR1" + bytes(100))  # a Parquet file given as --lines
    with pytest.raises(InputError, match="binary file"):
        spark_plan(LinesFile(binary)).check(str(binary), lambda: binary.open("rb"))
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(b'id,text\r\n1,"two\r\nlines"\r\n')
    with pytest.raises(InputError, match="Spark's reader would read it as"):
        spark_plan(Table(crlf, Format.csv)).checked_reader(str(crlf), lambda: crlf.open("rb"))
    mac = tmp_path / "mac.csv"
    mac.write_bytes(b"id,text\r1,a\r2,b\r")
    reader = spark_plan(Table(mac, Format.csv)).checked_reader(str(mac), lambda: mac.open("rb"))
    assert reader.options["lineSep"] == "\r"

    def never_opened():
        raise AssertionError("a Parquet file is not checked on the driver")

    assert spark_plan(Table(tmp_path / "t.parquet")).checked_reader("t.parquet", never_opened).name == "parquet"


def test_a_folder_spark_lists_itself_skips_what_a_local_one_skips():
    """A folder not on this machine (HDFS) is listed by Spark's file system: each entry left out is
    skipped with the reason the same entry of a local folder has, and a compressed file is refused."""
    assert unlisted_reason(".cache", True, "d/.cache/") == HIDDEN_FOLDER
    assert unlisted_reason("_tmp", True, "d/_tmp/") == HIDDEN_FOLDER
    assert unlisted_reason(".a.txt", False, "d/.a.txt") == HIDDEN_FILE
    assert unlisted_reason("_a.txt", False, "d/_a.txt") == UNDERSCORE_NAME
    assert unlisted_reason("a.txt", False, "d/a.txt") is None
    assert unlisted_reason("sub", True, "d/sub/") is None
    with pytest.raises(UsageError, match="gzip-compressed"):
        unlisted_reason("a.txt.gz", False, "d/a.txt.gz")
