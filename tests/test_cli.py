"""The command line through Typer's CliRunner and as a real subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib.metadata import version

import pyarrow.parquet as pq
import pytest
from corpora import planted_corpus, write_folder
from typer.main import get_command
from typer.testing import CliRunner

from dedup.banding import choose_banding, detection_probability
from dedup.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_run_prints_pairs_table_and_summary(tiny_corpus):
    result = invoke("run", tiny_corpus, "-k", "5")
    assert result.exit_code == 0, result.output
    table = [line.split() for line in result.stdout.splitlines()]
    assert table[0] == ["id_a", "id_b", "jaccard", "estimate"] and set(table[1][0]) == {"-"}
    assert [row[:3] for row in table[2:]] == [
        ["copy.txt", "original.txt", "1.000000"],
        ["copy.txt", "near.txt", "0.800000"],
        ["near.txt", "original.txt", "0.800000"],
    ]
    banding = choose_banding(0.8, 128)
    probability = detection_probability(0.8, banding.bands, banding.rows)
    lines = result.stderr.splitlines()
    summary = lines[[line.startswith("documents: ") for line in lines].index(True) :]
    assert summary[0] == "documents: 6 read = 5 processed + 1 empty + 0 skipped"
    assert summary[1].startswith("shingles: ") and summary[1].endswith("candidates: 3  pairs: 3 (Jaccard >= 0.8)")
    assert summary[2] == (
        f"LSH: {banding.bands} bands x {banding.rows} rows of 128 permutations; "
        f"P(candidate | J = 0.8) = {probability:.4f}"
    )


def test_quiet_prints_only_pairs(tiny_corpus):
    result = invoke("run", tiny_corpus, "-k", "5", "--quiet")
    assert result.exit_code == 0
    assert result.stderr == ""


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl"])
def test_output_formats_and_byte_identical_reruns(tmp_path, suffix):
    write_folder(tmp_path / "c", planted_corpus(n_base=20, variants=3, seed=11))
    outputs = []
    for i, threads in enumerate((1, 2, 2)):
        out = tmp_path / f"pairs{i}{suffix}"
        result = invoke("run", tmp_path / "c", "-k", "5", "-o", out, "--threads", threads, "-q")
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    out = tmp_path / f"pairs0{suffix}"
    if suffix == ".parquet":
        rows = pq.read_table(out).to_pylist()
    elif suffix == ".jsonl":
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    else:
        lines = out.read_text().splitlines()
        assert lines[0] == "id_a,id_b,jaccard,estimate"
        rows = [dict(zip(lines[0].split(","), line.split(","), strict=True)) for line in lines[1:]]
    assert rows and set(rows[0]) == {"id_a", "id_b", "jaccard", "estimate"}


@pytest.mark.parametrize(
    "args,message",
    [
        (["--threshold", "1.5"], "--threshold must be between 0 and 1"),
        (["--shingle-size", "0"], "--shingle-size must be between 1 and 1,000"),
        (["--num-perm", "0"], "--num-perm must be between 1 and 1,024"),
        (["--bands", "5", "--rows", "5"], "--bands 5 x --rows 5 = 25, but --num-perm is 128"),
        (["--output", "pairs.xlsx"], "cannot tell the output format"),
        (["--shingle-type", "byte"], "Invalid value"),
    ],
)
def test_usage_errors_exit_2_with_one_line(tiny_corpus, args, message):
    result = invoke("run", tiny_corpus, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_input_exits_2(tmp_path):
    result = invoke("run", tmp_path / "missing")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"Error: input not found: {tmp_path / 'missing'}"


def test_data_error_exits_1(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("id,body\n1,a\n")
    result = invoke("run", path)
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: {path}: no text column 'text'; columns are 'id', 'body'"


def test_sql_reads_the_run_database_read_only(tmp_path, tiny_corpus):
    db = tmp_path / "run.duckdb"
    assert invoke("run", tiny_corpus, "-k", "5", "--db", db, "-q").exit_code == 0
    result = invoke("sql", db, "select id_a, id_b from pairs order by all", "--format", "csv")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["id_a,id_b", "copy.txt,near.txt"]
    result = invoke("sql", db, "drop table pairs")
    assert result.exit_code == 1 and "read-only" in result.stderr
    assert invoke("sql", db, "select count(*) as n from pairs").exit_code == 0


def test_show_sql_prints_compiled_stage():
    result = invoke("show-sql", "signatures", "--num-perm", "2", "--bands", "2")
    assert result.exit_code == 0
    assert "min((h * $a_1::ubigint + $b_1::ubigint) & 4294967295::ubigint)::uinteger as mh_1" in result.stdout
    assert "{{" not in result.stdout


def test_every_command_has_help_with_an_example():
    command = get_command(app)
    for name in command.commands:  # type: ignore[attr-defined]
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert "Example" in result.stdout, name


def test_installed_command_runs_in_a_subprocess(tmp_path, tiny_corpus):
    exe = shutil.which("dedup") or pytest.fail("the dedup command is not installed")
    out = tmp_path / "pairs.csv"
    done = subprocess.run([exe, "run", str(tiny_corpus), "-k", "5", "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "copy.txt,original.txt,1.0" in out.read_text()
    bad = subprocess.run([exe, "run", str(tiny_corpus), "--threshold", "7"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    module = subprocess.run([sys.executable, "-m", "dedup", "--version"], capture_output=True, text=True)
    assert module.returncode == 0 and module.stdout == f"dedup {version('dedup')}\n"  # the installed package's


def test_word_shingles_on_text_without_spaces_say_so(tmp_path):
    """Word shingles on Japanese (no spaces between words) found nothing and said nothing: each
    line is one \\w+ token. The summary notes it and names the character shingles that find them."""
    lines = tmp_path / "ja.txt"
    lines.write_text(
        "東京都は日本の首都であり、人口が最も多い都市です。\n"
        "東京都は日本の首都であり、人口が最も多い都市である。\n"
        "大阪は関西地方の中心都市で、食べ物が有名です。\n",
        encoding="utf-8",
    )
    words = invoke("run", str(lines), "--lines", "--shingle-type", "word", "-t", "0.5")
    assert "note: the documents have 1.0 word shingles each on average" in words.stderr
    assert "--shingle-type char compares their characters" in words.stderr
    chars = invoke("run", str(lines), "--lines", "-k", "3", "-t", "0.5", "--format", "csv")
    assert chars.stdout.splitlines()[1].startswith("1,2,0.80")
    assert "word shingles each" not in chars.stderr


def test_japanese_paragraphs_among_english_documents_are_noted(tmp_path):
    """The note relied on the average shingles per document: Japanese paragraphs in a corpus of
    English (which averages many) got no note and no pair. Documents of few shingles with more than
    40 characters between spaces are counted."""
    english = [f"the quick brown fox jumps over the lazy dog again and again, number {i}" for i in range(20)]
    japanese = (
        "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で泣いていた。"
    )
    lines = tmp_path / "mixed.txt"
    lines.write_text("\n".join([*english, japanese, japanese[:-1] + "！"]) + "\n", encoding="utf-8")
    words = invoke("run", str(lines), "--lines", "--shingle-type", "word", "-t", "0.5")
    assert "note: 2 documents have more than 40 characters between spaces" in words.stderr, words.stderr
    english_only = tmp_path / "english.txt"
    english_only.write_text("\n".join(english) + "\n")
    assert "note:" not in invoke("run", str(english_only), "--lines", "--shingle-type", "word", "-t", "0.5").stderr


def test_usage_lines_name_arguments_plainly() -> None:
    assert runner.invoke(app, ["run", "--help"]).stdout.splitlines()[0].endswith(" run [OPTIONS] INPUT...")
    assert runner.invoke(app, ["remove", "--help"]).stdout.splitlines()[0].endswith(" remove [OPTIONS] DB [IDS]...")


def test_table_columns_are_padded_to_at_most_40_characters() -> None:
    import io

    import pyarrow as pa

    from dedup.cli.table import write_text_table

    stream = io.StringIO()
    write_text_table(pa.table({"id": ["a", "b" * 200], "jaccard": [0.9, 0.8]}), stream)
    first_row = stream.getvalue().splitlines()[2]
    assert len(first_row) <= 40 + 2 + len("0.900000")
