"""Each input is a value of its kind (dedup.corpus.kinds): detected once, by the same rules on this
machine and through an engine's listing, and copied back by its own rules."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app
from dedup.corpus.kinds import Folder, LinesFile, Listing, Stdin, Table, TextFile, input_kind
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
    csv = Table(tmp_path / "a.tsv", Format.tsv)
    reader = csv.spark_reader(default_reading(), line_end)
    assert reader.name == "csv"
    assert reader.options["sep"] == "\t" and reader.options["lineSep"] == line_end
    assert "lineSep" not in csv.spark_reader(default_reading(), "\r\n").options
    assert Table(tmp_path / "a.jsonl", Format.jsonl).spark_reader(default_reading()).options == {
        "allowSingleQuotes": "false"
    }
    assert LinesFile.spark_reader(line_end).options == {"lineSep": line_end}


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
    plan = input_kind(root, lines=False).spark_plan(str(root), "", default_reading())
    assert sorted(plan.loads) == sorted([str(root / "plain"), str(root / "mixed" / "c.txt"), str(root / "empty.txt")])
    assert plan.empty == ["empty.txt"]
    assert sorted(reason for _, reason in plan.skipped) == sorted(
        ["hidden file", "not read by the Spark engine (a name starting with _)", "symlink to a folder (not followed)"]
    )
