"""Messages count things in the number the count takes: `1 document`, `2 documents`."""

from pathlib import Path

from typer.testing import CliRunner

from dedup.cli import app
from dedup.wording import counted


def test_one_thing_is_singular_and_other_counts_plural_with_separators() -> None:
    assert counted(1, "document") == "1 document"
    assert [counted(n, "pair") for n in (0, 2, 1234)] == ["0 pairs", "2 pairs", "1,234 pairs"]
    assert counted(1, "id is", "ids are") == "1 id is" and counted(3, "id is", "ids are") == "3 ids are"


def test_a_run_that_writes_one_pair_says_one_pair(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.txt").write_text("the same words in both files here")
    (folder / "c.txt").write_text("something else entirely, nothing alike")
    result = CliRunner().invoke(app, ["run", str(folder), "-k", "3", "-o", str(tmp_path / "pairs.csv")])
    assert result.exit_code == 0, result.output
    assert f"wrote 1 pair to {tmp_path / 'pairs.csv'}" in result.stderr


def test_summary_numbers_have_thousands_separators(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("".join(f"document number {i} with some words\n" for i in range(1500)))
    result = CliRunner().invoke(app, ["run", str(path), "--lines", "-k", "3"])
    assert result.exit_code == 0, result.output
    assert "documents: 1,500 read = 1,500 processed" in result.stderr
    assert "shingles: " in result.stderr and "finished documents: 1,500 rows" in result.stderr
