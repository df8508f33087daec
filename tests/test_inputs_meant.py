"""Inputs are what the user meant: mistakes that used to give "0 pairs, exit 0" are said or refused."""

from __future__ import annotations

import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app


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
