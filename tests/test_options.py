"""A run's options are declared once (`Settings`) and built by one function (`run_options`) that
`dedup run`, `dedup eval`, `dedup.run` and the index's recorded run share."""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import dedup
from dedup.cli import app
from dedup.cli.evaluate import evaluate_command
from dedup.cli.run import run as run_command
from dedup.errors import UsageError
from dedup.options import run_options
from dedup.settings import PART_OF, PARTS, EngineOptions, Outputs, Reading, Settings, Sketch

FIELDS = set(PART_OF)  # every option, by the part that declares it
TEXTS = ["the cat sat on the mat by the door", "the cat sat on the mat by the door!", "a different text"]


@pytest.mark.parametrize(
    ("command", "besides"),
    [
        (run_command, {"output_format", "show_skipped", "quiet"}),  # how the result is printed
        (evaluate_command, {"sample", "sample_seed"}),  # what eval draws
        (dedup.run, {"documents", "spark", "replace"}),  # documents in memory, a session; replace_documents
    ],
)
def test_every_option_of_a_run_is_a_settings_field(command, besides):
    parameters = set(inspect.signature(command).parameters)
    assert parameters - besides <= FIELDS, parameters - besides - FIELDS


def test_dedup_run_takes_every_option_of_the_command_but_its_printing():
    command = set(inspect.signature(run_command).parameters) - {"output_format", "show_skipped", "quiet", "output"}
    api = set(inspect.signature(dedup.run).parameters) - {"documents", "spark"}
    assert command ^ api == {"replace_documents", "replace"}  # dedup.run(replace=...) is --replace


def test_the_forms_a_user_gives_are_one_settings():
    spark = {"engine": "spark", "master": "local[1]"}
    assert Settings.of(inputs="a", spark_conf={"k": "v=1"}, **spark) == Settings.of(
        inputs=[Path("a")], spark_conf=["k=v=1"], **spark
    )
    assert Settings.of(inputs="a", exports={"clusters": "c.csv"}, output="-") == Settings.of(
        inputs=("a",), exports=["clusters=c.csv"], text_column=None, seed=None
    )
    assert Settings.of(inputs="a", delimiter="\\t").reading.delimiter == "\t"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pairs": "some"}, "--pairs must be one of all, between-groups, none, got 'some'"),
        ({"keep": "oldest"}, "--keep must be one of first, min-id, longest, shortest, got 'oldest'"),
        ({"shingle_type": "line"}, "--shingle-type must be one of char, word, got 'line'"),
        ({"method": "minhash"}, "--method must be one of lsh, signature, exact, got 'minhash'"),
        ({"engine": "polars"}, "--engine must be one of duckdb, spark, got 'polars'"),
        ({"exports": ["clusters"]}, "--export takes WHAT=FILE"),
        ({"exports": {"everything": "e.csv"}}, "cannot export 'everything'"),
        ({"spark_conf": ["=1"], "engine": "spark"}, "--spark-conf takes KEY=VALUE"),
        ({"output": "p.csv", "pairs": "none"}, "--pairs none lists no pairs"),
        # it ran everything and wrote nothing
        ({"pairs": "none"}, "--pairs none lists no pairs and nothing else was asked: give --db, --export or"),
        # each made a file or folder named `-` in the current folder
        ({"db": "-"}, "--db -: the database is written to a file, not to standard output; name the file$"),
        ({"write_deduplicated": "-"}, "--write-deduplicated -: the copy is written to a file, not to standard output"),
    ],
)
def test_a_wrong_option_is_one_usage_error(options, message):
    with pytest.raises(UsageError, match="^" + message.replace("(", r"\(").replace("[", r"\[")):
        Settings.of(inputs="a", **options)


def test_each_option_is_declared_once_by_the_part_that_owns_it():
    declared = [field.name for part in PARTS.values() for field in dataclasses.fields(part) if field.init]
    assert len(declared) == len(set(declared)), sorted(name for name in declared if declared.count(name) > 1)
    assert {field.name for field in dataclasses.fields(Settings)} == set(PARTS)  # the parts, nothing loose
    for part in PARTS.values():  # each part checks the types of its own fields, none of another's
        assert set(part.TYPES) <= {field.name for field in dataclasses.fields(part) if field.init}, part


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Sketch(threshold=2), "--threshold must be between 0 and 1, got 2"),
        (lambda: Sketch(num_perm=64, bands=5), "--num-perm 64 is not divisible by 5"),
        (lambda: Sketch(shingle_size=True), "--shingle-size must be an integer, got True"),
        (lambda: Reading(), "give at least one input"),
        (lambda: Reading(inputs=("a", "b"), lines=True, ids_file="ids.txt"), "--ids names the lines of one --lines"),
        (lambda: EngineOptions(memory_limit="lots"), "--memory-limit must be a size such as 500MB"),
        (lambda: EngineOptions(threads=0), "--threads must be between 1 and"),
        (lambda: Outputs(audit=0), "--audit must be at least 1"),
        (lambda: Outputs(pairs="some"), "--pairs must be one of all"),
    ],
)
def test_a_part_made_alone_checks_its_own_options(make, message):
    with pytest.raises(UsageError, match="^" + message):
        make()


@given(
    threshold=st.floats(0.05, 1.0),
    num_perm=st.sampled_from([16, 64, 128]),
    banded=st.booleans(),
    shingle=st.sampled_from(["char", "word"]),
    strip_html=st.booleans(),
)
def test_a_recorded_run_gives_back_its_settings(threshold, num_perm, banded, shingle, strip_html):
    bands = {"bands": 8} if banded else {}
    settings = Settings.of(
        inputs=("x",), threshold=threshold, num_perm=num_perm, shingle_type=shingle, strip_html=strip_html, **bands
    )
    recorded = json.loads(json.dumps(settings.options()))  # as the runs table keeps them
    again = Settings(reading=Reading.recorded(recorded, (Path("x"),)), sketch=Sketch.recorded(recorded))
    assert again.options() == settings.options() and again.sketch.banding == settings.sketch.banding


def test_the_cli_and_the_api_record_the_same_options(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("id;text\n" + "".join(f"{i};{t}\n" for i, t in enumerate(TEXTS)))
    options = ["--delimiter", ";", "--shingle-type", "word", "-k", "2", "-t", "0.5", "--keep", "longest"]
    result = CliRunner().invoke(app, ["run", str(table), "--db", str(tmp_path / "cli.duckdb"), *options, "-q"])
    assert result.exit_code == 0, result.output
    pairs = dedup.run(
        table,
        delimiter=";",
        shingle_type="word",
        shingle_size=2,
        threshold=0.5,
        keep="longest",
        db=tmp_path / "api.duckdb",
    )
    assert pairs.column("id_a").to_pylist() == ["0"]  # the API reads the delimiter it was given
    recorded = []
    for db in ("cli.duckdb", "api.duckdb"):
        with duckdb.connect(str(tmp_path / db), read_only=True) as con:
            recorded.append(con.execute("select options from runs").fetchall())
    assert recorded[0] == recorded[1]


def test_run_options_checks_the_files_before_any_work(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXTS[0])
    (folder / "b.csv").write_text("id,text\n1,a\n")
    with pytest.raises(UsageError, match="--text-column applies to tables"):
        run_options(inputs=folder, text_column="body")
    run_options(inputs=folder, text_column="body", in_memory=True)  # documents given in memory: no files
    with pytest.raises(UsageError, match="would overwrite the input"):
        run_options(inputs=folder, exports={"pairs": folder / "b.csv"})
    with pytest.raises(UsageError, match="is the database"):
        run_options(inputs=folder, db=tmp_path / "run.csv", output=tmp_path / "run.csv")
    with pytest.raises(UsageError, match="must not overwrite the input"):
        run_options(inputs=folder, write_deduplicated=folder)


def test_execute_writes_the_deduplicated_input_without_a_database(tmp_path):
    from dedup.pipeline import execute

    lines = tmp_path / "docs.txt"
    lines.write_text("\n".join(TEXTS) + "\n")
    out = tmp_path / "kept.txt"
    settings = run_options(inputs=lines, lines=True, threshold=0.5, shingle_size=3, write_deduplicated=out)
    result = execute(settings)  # its clusters need a database: a temporary one, gone afterwards
    assert result.dropped == 1 and settings.engine_options.db is None
    assert out.read_text() == TEXTS[0] + "\n" + TEXTS[2] + "\n"
