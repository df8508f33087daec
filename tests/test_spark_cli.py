"""`dedup run --engine spark`: Spark reads the inputs itself, and the pairs are byte-identical to DuckDB's."""

from __future__ import annotations

import gzip
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import REPO
from test_csv_check import REFUSED
from traps import traps_corpus
from typer.testing import CliRunner

from dedup.cli import app
from dedup.errors import InputError

runner = CliRunner()


def run_both(tmp_path: Path, inputs: list[str], *options: str) -> tuple[bytes, bytes, str]:
    """The pairs CSV of a DuckDB run and of a Spark run (the tests' shared session) of the same command."""
    duck, spark = tmp_path / "duckdb.csv", tmp_path / "spark.csv"
    done = runner.invoke(app, ["run", *inputs, *options, "-q", "--output", str(duck)])
    assert done.exit_code == 0, done.output
    work = tmp_path / "work"
    done = runner.invoke(
        app, ["run", *inputs, *options, "--engine", "spark", "--work-dir", str(work), "--output", str(spark)]
    )
    assert done.exit_code == 0, done.output
    return duck.read_bytes(), spark.read_bytes(), done.output


@pytest.mark.slow
def test_folder_gives_byte_identical_pairs_and_a_rerun_reuses_the_stages_the_folder_keeps(spark, tmp_path):
    folder = str(REPO / "data" / "clough")
    duck, spark_pairs, summary = run_both(tmp_path, [folder], "--threshold", "0.5")
    assert duck == spark_pairs and duck.count(b"\n") == 17
    assert "17 decoded as Latin-1" in summary
    again = runner.invoke(
        app, ["run", folder, "--threshold", "0.5", "--engine", "spark", "--work-dir", str(tmp_path / "work")]
    )
    assert again.exit_code == 0, again.output
    assert again.output.count(", reused") == 1  # the documents: a lean folder keeps no shingles (test_spark_lean.py)


@pytest.mark.slow
def test_lines_and_tables_with_traps_give_byte_identical_pairs(spark, tmp_path):
    docs = traps_corpus()
    lines = tmp_path / "traps.txt"
    # \r\n endings, U+2028 and U+0085 inside lines, a Latin-1 line, a BOM on the first line
    body = "\ufeff" + "\r\n".join(text.replace("\n", " ") for text in docs.values()) + "\n"
    lines.write_bytes(body.encode("utf-8") + b"caf\xe9 cr\xe8me br\xfbl\xe9e\ncafe creme brulee\n")
    duck, spark_pairs, _ = run_both(tmp_path, [str(lines)], "--lines", "--threshold", "0.4", "-k", "3")
    assert duck == spark_pairs and duck.count(b"\n") > 60
    table = tmp_path / "traps.parquet"
    texts = list(docs.values()) + [None]
    pq.write_table(pa.table({"text": pa.array(texts, pa.string()), "n": list(range(len(texts)))}), table)
    duck, spark_pairs, summary = run_both(
        tmp_path, [str(table)], "--threshold", "0.5", "--method", "exact", "--shingle-type", "word", "-k", "2"
    )
    assert duck == spark_pairs and duck.count(b"\n") > 60
    assert "1 skipped" in summary


@pytest.mark.slow
@pytest.mark.parametrize("suffix,sep", [(".csv", ","), (".tsv", "\t"), (".csv", ";")])
def test_csv_cells_are_read_as_their_text_as_on_duckdb(spark, tmp_path, suffix, sep):
    """Spark inferred the column types (ids 007 and 0042 became 7 and 42) and read an empty cell
    as NULL (an empty text skipped, an empty id refused): the DuckDB engine reads the text. Spark
    also refused --delimiter ("not supported with --engine spark yet")."""
    fox = "the quick brown fox jumps over the lazy dog"
    rows = [("007", fox), ("0042", fox + "!"), ("5", "NA"), ("6", ""), ("8", "12345"), ("9", "12345.0")]
    table = tmp_path / f"t{suffix}"
    table.write_text("id" + sep + "text\n" + "".join(f"{i}{sep}{t}\n" for i, t in rows))
    delimiter = ["--delimiter", sep] if sep == ";" else []
    duck, spark_pairs, summary = run_both(tmp_path, [str(table)], "--threshold", "0.5", "-k", "3", *delimiter)
    assert duck == spark_pairs
    assert duck.decode().splitlines()[1].startswith("0042,007,")
    assert "6 read = 5 processed + 1 empty + 0 skipped" in summary
    empty_id = tmp_path / f"empty_id{suffix}"
    empty_id.write_text("id" + sep + "text\n" + sep + fox + "\n7" + sep + fox + "\n")
    duck, spark_pairs, _ = run_both(tmp_path, [str(empty_id)], "--threshold", "0.5", "-k", "3", *delimiter)
    assert duck == spark_pairs and duck.count(b"\n") == 2


@pytest.mark.slow
def test_csv_files_read_otherwise_by_the_two_readers_are_refused_alike(spark, tmp_path):
    """Spark's reader padded a row of too few fields, cut one of too many, read `"abc"def` as it
    stands (pyarrow as abcdef), a quote open to the end as a document, and a row ending in \\r\\n
    after a \\n header with a trailing \\r: the DuckDB engine refused some, read others otherwise."""
    for case, content, message in REFUSED:
        corpus = tmp_path / "t.csv"
        corpus.write_bytes(content)
        for engine in (["--db", str(tmp_path / "t.duckdb")], ["--engine", "spark", "--work-dir", str(tmp_path / "w")]):
            result = runner.invoke(app, ["run", str(corpus), "-q", *engine])
            assert (result.exit_code, result.output.count("\n")) == (1, 1), (case, engine, result.output)
            assert result.output.startswith(f"Error: {corpus}: {message}"), (case, engine, result.output)
    fake = tmp_path / "t.csv.gz"
    fake.write_bytes(b"id,text\n1,a\n")
    result = runner.invoke(app, ["run", str(fake), "--engine", "spark", "--work-dir", str(tmp_path / "w")])
    assert result.exit_code == 1 and result.output.startswith(f"Error: {fake}: damaged, or not gzip-compressed (")


@pytest.mark.slow
def test_json_lines_and_tables_spark_would_read_otherwise_are_refused(spark, tmp_path):
    """Spark's JSON reader took 'single-quoted' strings (pyarrow refuses them: the DuckDB engine
    refused a file Spark read) and read lines of `{}` as no documents; it stopped on keys or Parquet
    columns that differ only in case with its own COLUMN_ALREADY_EXISTS message (the DuckDB engine
    reads the column named by --text-column or `id`)."""
    quoted = tmp_path / "quoted.jsonl"
    quoted.write_text('{"id": 1, "text": "a b c"}\n{"id": 2, \'text\': \'a b c\'}\n', encoding="utf-8")
    duck, spark_error = errors_of_both(tmp_path, [str(quoted)])
    assert "JSON parse error" in duck and spark_error == duck  # a local file: checked on the driver as DuckDB reads it
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n{}\n", encoding="utf-8")  # Spark read it as no documents: one was lost
    duck, spark_error = errors_of_both(tmp_path, [str(empty)])
    assert duck == spark_error == f"Error: {empty}: no text column 'text'; columns are none\n"
    cased = tmp_path / "cased.jsonl"
    cased.write_text(
        '{"id": 1, "text": "a b c d e f"}\n{"id": 2, "Text": "x", "text": "a b c d e f"}\n', encoding="utf-8"
    )
    duck = runner.invoke(app, ["run", str(cased), "-q", "--format", "csv"])
    assert duck.exit_code == 0 and duck.stdout.splitlines()[1].startswith("1,2,"), duck.output
    result = runner.invoke(app, ["run", str(cased), "-q", "--engine", "spark", "--work-dir", str(tmp_path / "w")])
    assert (result.exit_code, result.output.count("\n")) == (1, 1), result.output
    assert result.output.startswith(f"Error: {cased}: the column `text` twice, or beside a column whose name differs")
    table = tmp_path / "cased.parquet"
    pq.write_table(pa.table({"ID": [1, 2], "id": [3, 4], "text": ["a b c d e f"] * 2}), table)
    duck = runner.invoke(app, ["run", str(table), "-q", "--format", "csv"])
    assert duck.exit_code == 0 and duck.stdout.splitlines()[1].startswith("3,4,"), duck.output
    result = runner.invoke(app, ["run", str(table), "-q", "--engine", "spark", "--work-dir", str(tmp_path / "w")])
    assert (result.exit_code, result.output.count("\n")) == (1, 1), result.output
    assert result.output.startswith(f"Error: {table}: the column `id` twice, or beside a column whose name differs")


@pytest.mark.slow
@pytest.mark.parametrize(
    "lines",
    [
        ['{"id": 1, "text": "a b c d"}', '{"id": "x", "text": "a b c d"}'],  # Spark read both ids as text
        ['{"id": 1, "text": "a b c d"}', '{"id": 2, "text": 5}'],
        ['{"id": 1, "text": "a b \\ud800 c d"}', '{"id": 2, "text": "a b c d"}'],  # Spark read a lone surrogate as ?
    ],
)
def test_json_lines_duckdb_refuses_are_refused_on_spark_alike(spark, tmp_path, lines):
    """A key whose values change type and a lone surrogate escape: the DuckDB engine (pyarrow)
    refuses the file, Spark's reader read it. Both now refuse it with the same line."""
    table = tmp_path / "docs.jsonl"
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    duck, spark_error = errors_of_both(tmp_path, [str(table)])
    assert duck == spark_error and duck.startswith(f"Error: cannot read table {table}: JSON parse error: ")


@pytest.mark.slow
@pytest.mark.parametrize("line_break", ["\n", "\r", "\r\n"])
def test_quoted_line_breaks_are_read_as_on_duckdb_whatever_the_rows_end_with(spark, tmp_path, line_break):
    """Spark read a \\r inside a quoted value as \\n in a file whose rows end with \\r, and a \\r\\n
    as \\n in one whose rows end with \\r\\n (refused: Spark cannot be told otherwise): the DuckDB
    engine keeps them as the file has them."""
    inner = "\r" if line_break == "\r\n" else "\r\n"  # a break other than the rows'
    texts = {"1": f"one{inner}two", "2": "three\nfour", "3": "five six", "4": f'seven "eight"{line_break}nine'}
    corpus = tmp_path / "t.csv"
    rows = "".join(f'{i},"{t.replace(chr(34), 2 * chr(34))}"{line_break}' for i, t in texts.items())
    corpus.write_bytes(f"id,text{line_break}{rows}".encode())
    db, work = tmp_path / "t.duckdb", tmp_path / "work"
    if line_break == "\r\n":  # the value holding \r\n
        result = runner.invoke(app, ["run", str(corpus), "-q", "--engine", "spark", "--work-dir", str(work)])
        assert result.exit_code == 1 and result.output.startswith(
            f"Error: {corpus}: line 7: a quoted value holds"
        )  # a \r is a line
        del texts["4"]
        rows = "".join(f'{i},"{t}"{line_break}' for i, t in texts.items())
        corpus.write_bytes(f"id,text{line_break}{rows}".encode())
    assert runner.invoke(app, ["run", str(corpus), "-q", "--db", str(db)]).exit_code == 0
    done = runner.invoke(app, ["run", str(corpus), "-q", "--engine", "spark", "--work-dir", str(work)])
    assert done.exit_code == 0, done.output
    with duckdb.connect(str(db), read_only=True) as con:
        duck = dict(con.sql("select id, text from documents").fetchall())
    spark_texts = pq.read_table(work / "documents", columns=["id", "text"]).to_pylist()
    assert duck == texts == {row["id"]: row["text"] for row in spark_texts}


@pytest.mark.slow
def test_a_csv_read_through_the_jvm_is_checked_as_a_local_file(spark, tmp_path, monkeypatch):
    """A CSV on HDFS or an object store reaches the driver's check through a JVM stream, in parts."""
    import io

    from dedup.corpus.csv_check import check_csv
    from dedup.engines.spark import engine as spark_engine

    monkeypatch.setattr(spark_engine, "READ_BYTES", 7)  # many parts, and a part ending inside a character
    content = 'id,text\n1,"café ünïcode\nsecond line"\n2,"open to the end\n'.encode()
    corpus = tmp_path / "t.csv"
    corpus.write_bytes(content)
    jvm_path = spark._jvm.org.apache.hadoop.fs.Path(str(corpus))
    stream = jvm_path.getFileSystem(spark._jsc.hadoopConfiguration()).open(jvm_path)
    try:
        data = io.BufferedReader(spark_engine._JavaStream(stream), buffer_size=5)
        with pytest.raises(InputError) as raised:
            check_csv("t.csv", data, ",", None)
    finally:
        stream.close()
    with pytest.raises(InputError) as local:
        check_csv("t.csv", io.BytesIO(content), ",", None)
    assert str(raised.value) == str(local.value) and "line 4" in str(local.value)


def test_spark_without_java_fails_with_one_line_saying_how_to_get_it(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)  # no java here
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dedup",
            "run",
            str(REPO / "data" / "clough"),
            "--engine",
            "spark",
            "--work-dir",
            str(tmp_path / "w"),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("Error: Spark needs Java 17 or 21")


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("JAVA_HOME", "/nonexistent", "Error: Spark needs Java 17 or 21"),  # java on PATH passed the check
        ("SPARK_HOME", "/nonexistent", "Error: SPARK_HOME=/nonexistent has no bin/spark-submit"),
        ("SPARK_HOME", "", "Error: SPARK_HOME= has no bin/spark-submit"),
        ("PYSPARK_PYTHON", "/nonexistent", "Error: PYSPARK_PYTHON=/nonexistent is no program"),
    ],
)
def test_spark_variables_naming_nothing_fail_with_one_line(tmp_path, variable, value, message):
    """Each was a traceback from the Java gateway (or, for PYSPARK_PYTHON, `Error: error=2, ...`)
    once Spark started: they are checked before it starts."""
    env = {**os.environ, variable: value}
    done = subprocess.run(
        [sys.executable, "-m", "dedup", "run", str(REPO / "data" / "clough"), "--engine", "spark",
         "--work-dir", str(tmp_path / "w")],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(message), done.stderr


def test_spark_options_are_checked(tmp_path):
    folder = str(REPO / "data" / "clough")
    done = runner.invoke(app, ["run", folder, "--engine", "spark", "--master", "spark://127.0.0.1:7077"])
    assert done.exit_code == 2 and "needs --work-dir" in done.output  # a temporary folder serves local masters only
    done = runner.invoke(app, ["run", folder, "--engine", "spark", "--threads", "2"])
    assert done.exit_code == 2 and "--threads is for the DuckDB engine" in done.output
    done = runner.invoke(app, ["run", folder, "--work-dir", "w"])
    assert done.exit_code == 2 and "--work-dir is for the Spark engine" in done.output
    done = runner.invoke(app, ["run", folder, "--engine", "spark", "--work-dir", "w", "--db", "x.duckdb"])
    assert done.exit_code == 2 and "--db is for the DuckDB engine" in done.output
    done = runner.invoke(app, ["run", folder, "--engine", "spark", "--work-dir", "w", "--spark-conf", "novalue"])
    assert done.exit_code == 2 and "KEY=VALUE" in done.output


@pytest.mark.slow
def test_a_work_folder_that_holds_other_files_is_refused_before_any_write(spark, tmp_path):
    """`--work-dir .` in a folder with a `documents/` of the user's: Spark's overwrite of the
    documents stage table deleted it. A folder with anything dedup did not write is refused (exit 2,
    one line, nothing changed); a new or empty one is marked and reused by the next run; a work
    folder inside an input folder is refused like an output there."""
    folder, work = tmp_path / "corpus", tmp_path / "project"
    folder.mkdir()
    for name, text in (("a", "the cat sat on the mat today"), ("b", "the cat sat on the mat today!")):
        (folder / f"{name}.txt").write_text(text)
    (work / "documents").mkdir(parents=True)
    (work / "documents" / "mine.txt").write_text("precious")
    command = ["run", str(folder), "-q", "-t", "0.5", "-k", "3", "--engine", "spark", "--work-dir"]
    done = runner.invoke(app, [*command, str(work)])
    assert done.exit_code == 2
    assert done.stderr == (
        f"Error: --work-dir {work} holds files that dedup did not write (documents): its stage tables would "
        "replace those of the same name; give a new or empty folder\n"
    )
    assert [p.name for p in work.rglob("*")] == ["documents", "mine.txt"]
    done = runner.invoke(app, [*command, str(folder / "work")])
    assert done.exit_code == 2 and "is inside the input folder" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["a.txt", "b.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    for _ in range(2):  # marked by the first run, reused by the second
        done = runner.invoke(app, [*command, str(empty)])
        assert done.exit_code == 0, done.output
        assert "a.txt" in done.stdout and (empty / "_dedup_work").is_file()


@pytest.mark.slow
def test_python_api_on_an_existing_session_gives_the_duckdb_pairs_and_exports(spark, tmp_path):
    import dedup

    options = {"threshold": 0.5, "shingle_type": "word", "shingle_size": 3}
    ansi = spark.conf.get("spark.sql.ansi.enabled")  # two statements run with it off (their files say so)
    expected = dedup.run(REPO / "data" / "clough", **options, exports={"duplicates": tmp_path / "duckdb.parquet"})
    work = tmp_path / "work"
    found = dedup.run(
        REPO / "data" / "clough",
        **options,
        engine="spark",
        spark=spark,
        work_dir=work,
        exports={"duplicates": tmp_path / "spark.parquet"},  # clusters by the default rule, first
    )
    assert found.to_pylist() == expected.to_pylist() and expected.num_rows > 0
    assert (tmp_path / "spark.parquet").read_bytes() == (tmp_path / "duckdb.parquet").read_bytes()
    assert pq.read_table(tmp_path / "duckdb.parquet").num_rows > 0 and (work / "clusters").is_dir()
    found = dedup.run(REPO / "data" / "clough", **options, engine="spark", spark=spark)  # in a temporary folder
    assert found.to_pylist() == expected.to_pylist()
    assert spark.range(1).count() == 1  # the caller's session is left running
    assert spark.conf.get("spark.sql.ansi.enabled") == ansi  # and its settings as they were


@pytest.mark.slow
def test_spark_submit_runs_the_command_line_with_byte_identical_pairs(tmp_path):
    """`spark-submit .../dedup/__main__.py run ...` (README): a job of its own, in its own JVM."""
    submit = Path(sys.executable).parent / "spark-submit"  # installed with pyspark (the test extra)
    assert submit.exists(), f"no spark-submit beside {sys.executable}"
    folder = str(REPO / "data" / "clough")
    duck, found = tmp_path / "duckdb.csv", tmp_path / "submitted.csv"
    done = runner.invoke(app, ["run", folder, "-t", "0.5", "-q", "-o", str(duck)])
    assert done.exit_code == 0, done.output
    main = importlib.util.find_spec("dedup.__main__").origin  # as the README finds it
    options = ["--engine", "spark", "--work-dir", str(tmp_path / "work"), "-q", "-o", str(found)]
    done = subprocess.run(
        [str(submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false", str(main), "run", folder, "-t", "0.5"]
        + options,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert found.read_bytes() == duck.read_bytes() and duck.read_bytes().count(b"\n") == 17


@pytest.mark.slow
@pytest.mark.parametrize(("resolve", "dropped"), [("verified", 12), ("components", 15)])
def test_keep_and_exports_give_the_duckdb_clusters_and_files_on_spark(spark, tmp_path, resolve, dropped):
    """--keep on Spark: the clusters table (connected components iterated until stable, survivors by
    the rule: the verified rule's rounds, or one per component) is DuckDB's row for row, with
    identical texts joined as on DuckDB; every --export file (clusters, duplicates, survivors,
    adjacency, pairs; CSV, Parquet, JSON) has the DuckDB run's bytes."""
    import shutil

    import duckdb
    from crossengine import sorted_rows

    from dedup.choices import ExportKind

    folder = tmp_path / "corpus"
    shutil.copytree(REPO / "data" / "clough", folder)
    originals = sorted(folder.glob("orig_*.txt"))
    for i, original in enumerate(originals[:3]):  # identical copies: clusters by text, not only by pairs
        (folder / f"zz_copy{i}.txt").write_bytes(original.read_bytes())
    options = ["--threshold", "0.5", "--keep", "longest", "--resolve", resolve, "-q"]
    files = [(what.value, suffix) for what in ExportKind for suffix in (".csv", ".parquet", ".json")]

    def exports(engine: str) -> list[str]:
        return [f"--export={what}={tmp_path / f'{engine}-{what}{suffix}'}" for what, suffix in files]

    db = tmp_path / "duck.duckdb"
    done = runner.invoke(
        app, ["run", str(folder), *options, "--db", str(db), "-o", str(tmp_path / "duck.csv"), *exports("duckdb")]
    )
    assert done.exit_code == 0, done.output
    work = tmp_path / "work"
    spark_run = ["run", str(folder), *options, "--engine", "spark", "--work-dir", str(work)]
    done = runner.invoke(app, [*spark_run, "-o", str(tmp_path / "s.csv"), *exports("spark")])
    assert done.exit_code == 0, done.output
    con = duckdb.connect(str(db), read_only=True)
    expected = con.sql("select * from clusters").to_arrow_table()
    con.close()
    found = pq.read_table(work / "clusters")
    assert found.column_names == expected.column_names
    assert sorted_rows(found) == sorted_rows(expected)
    assert sum(1 for s in expected.column("is_survivor").to_pylist() if not s) >= 3
    for what, suffix in files:
        duck, spark_file = tmp_path / f"duckdb-{what}{suffix}", tmp_path / f"spark-{what}{suffix}"
        assert spark_file.read_bytes() == duck.read_bytes(), spark_file.name
    # a header and the kept documents: the verified rule keeps 3 that the components rule drops
    assert (tmp_path / "duckdb-survivors.csv").read_text().count("\n") == 1 + 103 - dropped


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["lines", "inputs"])
def test_input_numbering_gives_the_duckdb_documents_table_over_scan_splits(spark, tmp_path, kind):
    """Input order (position), line and row numbers (ids) and doc_ids come from Spark's readers split
    into many scan partitions (1 KiB each here): a --lines file, or several inputs at once (a folder
    with binary and zero-byte files, a zero-byte file, a table of many row groups with a NULL text and
    no id column).
    The documents and skipped tables are DuckDB's, row for row."""
    import duckdb
    from crossengine import sorted_rows

    docs = list(traps_corpus().values())
    if kind == "lines":
        lines = tmp_path / "lines.txt"
        lines.write_text("".join(f"{i} {t.replace(chr(10), ' ')}\n" for i, t in enumerate(docs * 4)), "utf-8")
        inputs, options, loaded, skipped_count = [str(lines)], ["--lines"], 4 * len(docs), 0
    else:
        table = tmp_path / "rows.parquet"
        texts = [f"row {i} " + docs[i % len(docs)] for i in range(150)] + [None] + ["after the null"] * 3
        pq.write_table(pa.table({"text": pa.array(texts, pa.string())}), table, row_group_size=16)
        folder = tmp_path / "files"
        folder.mkdir()
        for i, text in enumerate(docs[:20]):
            (folder / f"f{i:02d}.txt").write_text(text, "utf-8")
        (folder / "blob.bin").write_bytes(b"\x00\x01binary")
        (tmp_path / "empty.txt").write_bytes(b"")  # zero bytes: a document (Spark's scan reads no split of it)
        docs_in_folder = sum("\x00" not in text for text in docs[:20])
        inputs, options = [str(folder), str(tmp_path / "empty.txt"), str(table)], []
        loaded, skipped_count = docs_in_folder + 1 + 153, 20 - docs_in_folder + 2
    db = tmp_path / "duck.duckdb"
    done = runner.invoke(app, ["run", *inputs, *options, "-t", "0.5", "-q", "--db", str(db)])
    assert done.exit_code == 0, done.output
    work = tmp_path / "work"
    keys = ("spark.sql.files.maxPartitionBytes", "spark.sql.files.openCostInBytes")
    before = {key: spark.conf.get(key, None) for key in keys}
    spark.conf.set("spark.sql.files.maxPartitionBytes", "1024")
    spark.conf.set("spark.sql.files.openCostInBytes", "256")
    try:
        spark_run = ["run", *inputs, *options, "-t", "0.5", "-q", "--engine", "spark", "--work-dir", str(work)]
        done = runner.invoke(app, spark_run)
    finally:
        for key, value in before.items():
            spark.conf.unset(key) if value is None else spark.conf.set(key, value)
    assert done.exit_code == 0, done.output
    con = duckdb.connect(str(db), read_only=True)
    expected = con.sql("select * from documents").to_arrow_table()
    skipped = con.sql("select * from skipped").to_arrow_table()
    con.close()
    found = pq.read_table(work / "documents")
    assert found.column_names == expected.column_names
    assert sorted_rows(found) == sorted_rows(expected) and expected.num_rows == loaded
    assert sorted_rows(pq.read_table(work / "skipped")) == sorted_rows(skipped) and skipped.num_rows == skipped_count


def errors_of_both(tmp_path: Path, inputs: list[str], *options: str) -> tuple[str, str]:
    """The stderr of a DuckDB run and of a Spark run of the same command, both refused with exit 1."""
    duck = runner.invoke(app, ["run", *inputs, *options, "-q"])
    spark = runner.invoke(app, ["run", *inputs, *options, "-q", "--engine", "spark", "--work-dir", str(tmp_path / "w")])
    assert (duck.exit_code, spark.exit_code) == (1, 1), (duck.output, spark.output)
    return duck.stderr, spark.stderr


@pytest.mark.slow
def test_ids_spark_would_name_otherwise_are_refused_and_uint64_ids_agree(spark, tmp_path):
    """A double id 1.0 was "1.0" in Spark's pairs and "1" in DuckDB's (Arrow's text): the same
    documents named differently by the two engines, in silence. Spark now refuses ids that are not
    integers or strings; uint64 ids (a decimal(20,0) in Spark) give the same pairs."""
    fox = "the quick brown fox jumps over the lazy dog"
    texts = [fox, fox + "!", "another text entirely"]
    table = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [1.0, 2.5, 3.0], "text": texts}), table)
    spark_run = runner.invoke(
        app, ["run", str(table), "--threshold", "0.5", "-q", "--engine", "spark", "--work-dir", str(tmp_path / "w")]
    )
    assert spark_run.exit_code == 1
    assert spark_run.stderr == (
        f"Error: {table}: id column 'id' has type double; the Spark engine takes integer or string ids "
        "(cast the column, or use --engine duckdb)\n"
    )
    big = tmp_path / "big.parquet"
    pq.write_table(pa.table({"id": pa.array([2**64 - 1, 2**63, 7], pa.uint64()), "text": texts}), big)
    (tmp_path / "u").mkdir()
    duck, spark_pairs, _ = run_both(tmp_path / "u", [str(big)], "--threshold", "0.5")
    assert duck == spark_pairs and b"18446744073709551615" in duck


@pytest.mark.slow
@pytest.mark.parametrize("case", ["parquet", "csv", "two inputs", "nan"])
def test_duplicate_and_nan_ids_are_refused_as_on_duckdb(spark, tmp_path, case):
    """The Spark engine did not check the ids: two documents with one id gave the pair (a, a), and
    every stage takes the ids to be unique. NaN ids (NaN equals nothing) are refused on both."""
    fox = "the quick brown fox jumps over the lazy dog"
    table = tmp_path / ("t.csv" if case == "csv" else "t.parquet")
    ids: list = ["b", "a", "b", "a"]  # the id whose second occurrence comes first: b
    if case == "nan":
        ids = [1.0, float("nan"), 2.0, float("nan")]
    texts = [fox, fox + "!", "another text entirely", fox + "?"]
    if case == "csv":
        table.write_text("id,text\n" + "".join(f"00{i},{t}\n" for i, t in zip(ids, texts, strict=True)))
    else:
        pq.write_table(pa.table({"id": ids, "text": texts}), table)
    inputs = [str(table)]
    if case == "two inputs":
        other = tmp_path / "other.parquet"
        pq.write_table(pa.table({"id": ["b"], "text": [fox]}), other)
        inputs = [str(other), str(table)]
    duck, spark_error = errors_of_both(tmp_path, inputs, "--threshold", "0.5")
    assert spark_error == duck
    expected = {
        "parquet": "duplicate document id 'b': ids must be unique",
        "csv": "duplicate document id '00b': ids must be unique",
        "two inputs": f"duplicate document id '{table}:b': ids must be unique",
        "nan": f"{table}: id column 'id' has 2 NaN (not a number) values; NaN cannot name a document",
    }[case]
    assert duck == f"Error: {expected}\n"


@pytest.mark.slow
def test_lines_with_classic_mac_line_ends_are_split_at_cr_as_on_duckdb(spark, tmp_path):
    """A --lines file with \\r line ends and no \\n was one document (0 pairs) on both engines."""
    fox = "the quick brown fox jumps over the lazy dog"
    lines = tmp_path / "mac.txt"
    lines.write_bytes(f"\ufeff{fox}\r{fox}!\rcaf\xe9 cr\xe8me\r\r{fox}?\r".encode().replace(b"\xc3\xa9", b"\xe9"))
    duck, spark_pairs, summary = run_both(tmp_path, [str(lines)], "--lines", "--threshold", "0.5")
    assert duck == spark_pairs and duck.count(b"\n") == 4  # a header and the three foxes' pairs
    assert "5 read = 4 processed + 1 empty + 0 skipped" in summary and "1 decoded as Latin-1" in summary
    assert f"note: {lines}: no \\n in the file, so its lines were split at \\r" in summary


@pytest.mark.slow
def test_lines_joined_with_their_boms_and_binary_lines_files_are_read_as_on_duckdb(spark, tmp_path):
    """Files joined by `cat` keep each one's BOM at the start of a line: DuckDB drops it from every
    line, Spark kept it past the first (a document one character longer: other shingles and
    Jaccards). A binary --lines file, which DuckDB refuses, was read by Spark as lines."""
    fox = "the quick brown fox jumps over the lazy dog"
    joined = tmp_path / "joined.txt"
    joined.write_bytes(f"\ufeff{fox}\nsomething else entirely\n\ufeff{fox}\n\ufeff\n".encode())
    duck, spark_pairs, summary = run_both(tmp_path, [str(joined)], "--lines", "--threshold", "0.5")
    assert duck == spark_pairs and duck.splitlines()[1].startswith(b"1,3,1.0"), (duck, spark_pairs)
    assert "4 read = 3 processed + 1 empty + 0 skipped" in summary
    mac = tmp_path / "mac-latin1.txt"  # Spark found no \r in a first line that is not UTF-8: one document
    mac.write_bytes(f"caf\xe9 {fox}\r{fox}\r".encode("latin-1"))
    duck, spark_pairs, summary = run_both(tmp_path, [str(mac)], "--lines", "--threshold", "0.5")
    assert duck == spark_pairs and duck.splitlines()[1:] == [b"1,2,0.875,0.828125"], (duck, spark_pairs)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"text\x00\x00\x00\x00\x00\x00 and more\n" * 20)
    duck_error, spark_error = errors_of_both(tmp_path, [str(binary)], "--lines")
    assert (
        duck_error
        == spark_error
        == f"Error: {binary} is a binary file, not lines of text: --lines reads text files (tables without it)\n"
    )


@pytest.mark.slow
def test_table_cells_that_are_not_utf8_are_read_as_on_duckdb(spark, tmp_path):
    """Spark read a Latin-1 CSV as UTF-8, each such byte silently U+FFFD (other pairs than DuckDB's),
    took a Parquet string that is not UTF-8 as it was, refused a binary text column, kept binary ids
    as bytes, and skipped a JSON line that is not UTF-8 as "text is NULL". Now: DuckDB's reading,
    or its one-line error."""
    fox = "caf\xe9 cr\xe8me br\xfbl\xe9e and the quick brown fox"
    table = tmp_path / "latin1.csv"
    rows = [("n\xe9e", fox, "latin-1"), ("b", fox, "utf-8"), ("c", fox + "!", "latin-1"), ("d", "x", "utf-8")]
    table.write_bytes(b"\xef\xbb\xbfid,text\n" + b"".join(f"{i},{t}\n".encode(n) for i, t, n in rows))
    duck, spark_pairs, summary = run_both(tmp_path, [str(table)], "--threshold", "0.5")
    assert duck == spark_pairs and duck.decode().splitlines()[1].startswith("b,n\xe9e,1.0,")
    assert "4 read = 4 processed + 0 empty + 0 skipped (2 decoded as Latin-1)" in summary
    raw = pa.array([fox.encode("latin-1"), fox.encode(), None, b"\xef\xbb\xbf" + fox.encode()], pa.binary())
    unchecked = pa.StringArray.from_buffers(len(raw), raw.buffers()[1], raw.buffers()[2], raw.buffers()[0])
    for name, texts in (("string", unchecked), ("binary", raw)):
        table = tmp_path / f"{name}.parquet"
        ids = pa.array([b"a", b"b", b"c", b"d"], pa.binary()) if name == "binary" else ["a", "b", "c", "d"]
        pq.write_table(pa.table({"id": ids, "text": texts}), table)
        duck, spark_pairs, summary = run_both(tmp_path, [str(table)], "--threshold", "0.5")
        assert duck == spark_pairs and duck.count(b"\n") == 4
        assert "4 read = 3 processed + 0 empty + 1 skipped (1 decoded as Latin-1)" in summary
    table = tmp_path / "docs.jsonl"
    table.write_bytes(b'{"id": "a", "text": "caf\xe9"}\n{"id": "b", "text": "cafe"}\n')
    duck_error, spark_error = errors_of_both(tmp_path, [str(table)])
    assert duck_error == f"Error: {table}: text column 'text' holds text that is not valid UTF-8\n"
    assert spark_error == f"Error: {table}: a line is not valid JSON, or not UTF-8 (JSON lines must be UTF-8)\n"


@pytest.mark.slow
def test_inputs_whose_names_look_like_globs_are_read_as_named(spark, tmp_path):
    """Spark's readers take a path as a Hadoop glob: the folder `g[12]` was read as the folder `g1`
    (its files, with ids cut at the wrong place), the table `t[1].csv` as `t1.csv`, the --lines file
    `l{a,b}.txt` as `la.txt`: other documents, exit 0. The inputs are now read as named; names in
    a folder with such characters (and spaces, %, #, emoji) give the ids DuckDB gives."""
    fox = "the quick brown fox jumps over the lazy dog"
    for folder, names in {
        "g[12]": ["in [1].txt", "x{a,b}*?.txt", "p%20 #😀.txt"],
        "g1": ["other.txt", "b.txt"],
    }.items():
        (tmp_path / folder).mkdir()
        for number, name in enumerate(names):
            (tmp_path / folder / name).write_text(fox + " " + folder[0] * number + "!" * number)
    (tmp_path / "t[1].csv").write_text(f"id,text\n1,{fox}\n2,{fox}!\n")
    (tmp_path / "t1.csv").write_text(f"id,text\n7,{fox}\n8,{fox}?\n")
    duck, spark_pairs, _ = run_both(
        tmp_path, [str(tmp_path / "g[12]"), str(tmp_path / "t[1].csv")], "--threshold", "0.3"
    )
    assert duck == spark_pairs
    assert b"in [1].txt" in duck and b"t[1].csv:2" in duck and b"other" not in duck and b"t[1].csv:7" not in duck
    (tmp_path / "l{a,b}.txt").write_text(f"{fox}\n{fox}!\n")
    (tmp_path / "la.txt").write_text(f"{fox}\nzzz\n")
    duck, spark_pairs, _ = run_both(tmp_path, [str(tmp_path / "l{a,b}.txt")], "--lines", "--threshold", "0.3")
    assert duck == spark_pairs and duck.count(b"\n") == 2


@pytest.mark.slow
def test_empty_tables_are_empty_as_on_duckdb(spark, tmp_path):
    """A zero-byte .csv or .jsonl is 0 documents on DuckDB; Spark refused it ("no text column
    'text'; columns are " and nothing after it), and both did so for JSON lines that are blank."""
    (tmp_path / "zero.csv").write_bytes(b"")
    (tmp_path / "blank.jsonl").write_bytes(b" \n\n\t\n")
    (tmp_path / "ok.jsonl").write_text(
        '{"id":"a","text":"the quick brown fox"}\n{"id":"b","text":"the quick brown fox!"}\n'
    )
    inputs = [str(tmp_path / name) for name in ("zero.csv", "blank.jsonl", "ok.jsonl")]
    duck, spark_pairs, summary = run_both(tmp_path, inputs, "--threshold", "0.5", "-k", "3")
    assert duck == spark_pairs and duck.count(b"\n") == 2
    assert "documents: 2 read = 2 processed" in summary
    duck, spark_pairs, summary = run_both(tmp_path, [str(tmp_path / "blank.jsonl")])
    assert duck == spark_pairs == b"id_a,id_b,jaccard,estimate\n"
    assert "warning: no documents were found in the inputs" in summary


@pytest.mark.slow
def test_files_whose_names_are_not_utf8_are_listed_as_skipped_by_spark(spark, tmp_path):
    """The JVM does not list a file whose name is not UTF-8: Spark dropped it without a word
    (`read = 3 processed + 1 skipped` for a folder of 5 files). The DuckDB engine reads it (its id
    shows the byte as \\xNN); Spark now lists it as skipped, with the id DuckDB gives it."""
    fox = "the quick brown fox jumps over the lazy dog"
    folder = tmp_path / "c"
    (folder / "sub").mkdir(parents=True)
    for number, name in enumerate([b"lat\xe9.txt", b"plain.txt", b"sub/b\xff.txt", b"sub/ok.txt"]):
        with open(bytes(folder) + b"/" + name, "wb") as stream:
            stream.write((fox + "!" * number).encode())
    os.mkdir(bytes(folder) + b"/dir\xe9")
    with open(bytes(folder) + b"/dir\xe9/inside.txt", "wb") as stream:
        stream.write(fox.encode())
    result = runner.invoke(
        app, ["run", str(folder), "--engine", "spark", "--work-dir", str(tmp_path / "work"), "--show-skipped"]
    )
    assert result.exit_code == 0, result.output
    summary = result.stderr
    assert "documents: 5 read = 2 processed + 0 empty + 3 skipped" in summary, summary
    for shown in ("lat\\xe9.txt", "sub/b\\xff.txt", "dir\\xe9/"):
        assert shown in summary, summary


def test_an_input_path_that_is_not_utf8_is_refused_in_one_line_by_spark(spark, tmp_path):
    """Hadoop's Path stopped on an input named with bytes that are not UTF-8 (`Error: An error
    occurred while calling None.org.apache.hadoop.fs.Path`); it is refused, naming the way out."""
    path = tmp_path / os.fsdecode(b"t\xff.txt")
    path.write_text("the quick brown fox jumps over the lazy dog\n")
    result = runner.invoke(app, ["run", str(path), "--engine", "spark", "--work-dir", str(tmp_path / "w"), "-q"])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {tmp_path}/t\\xff.txt: Spark opens UTF-8 paths only, and this one is not: rename it, "
        "or use --engine duckdb\n"
    )


def test_standard_input_and_pipes_are_refused_by_spark_in_one_line(spark, tmp_path):
    """Spark opens an input in the JVM: `<(zcat docs.gz)` (/dev/fd/N, a pipe of this process) named
    one of the JVM's own open files there, whose lines were paired as the documents."""
    read_end, write_end = os.pipe()
    os.write(write_end, b"one two three\none two three\n")
    os.close(write_end)
    try:
        cases = {
            "-": "--engine spark reads files, not standard input: write it to a file, or use --engine duckdb",
            f"/dev/fd/{read_end}": f"--engine spark reads files, and /dev/fd/{read_end} is a pipe or a file of "
            "this process only: write it to a file, or use --engine duckdb",
            "/dev/stdin": "--engine spark reads files, and /dev/stdin is a pipe or a file of this process only: "
            "write it to a file, or use --engine duckdb",
        }
        for given, message in cases.items():
            work = tmp_path / "work"
            result = runner.invoke(app, ["run", given, "--lines", "--engine", "spark", "--work-dir", str(work), "-q"])
            assert result.exit_code == 2, (given, result.output)
            assert result.stderr == f"Error: {message}\n"
    finally:
        os.close(read_end)


@pytest.mark.slow
def test_folder_links_special_files_and_underscore_folders_are_read_as_on_duckdb(spark, tmp_path):
    """Spark's own listing of a folder followed a symlink to a folder (a `loop -> .` link read
    a.txt 40 times, as 40 documents paired with each other at 1.0; a link to a folder outside the
    input read that folder), left out folders whose name starts with _ (read by DuckDB) and broken
    links and fifos (listed as skipped by DuckDB), and stopped on a name that is not UTF-8 below the
    top folder. Now the same documents and the same skipped inputs as on DuckDB; the names Spark
    cannot read at all are listed as skipped, as before."""
    fox = "the quick brown fox jumps over the lazy dog by the river"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "far.txt").write_text(fox + " far")
    folder = tmp_path / "c"
    (folder / "_tmp").mkdir(parents=True)
    (folder / "deep" / "er").mkdir(parents=True)
    (folder / "a.txt").write_text(fox)
    (folder / "_tmp" / "b.txt").write_text(fox + " b")
    (folder / "deep" / "er" / "c.txt").write_text(fox + " c")
    (folder / "deep" / "empty.txt").write_bytes(b"")
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    (folder / "deep" / "far").symlink_to(elsewhere, target_is_directory=True)
    (folder / "deep" / "broken.txt").symlink_to(tmp_path / "missing.txt")
    os.mkfifo(folder / "deep" / "er" / "fifo")
    with open(bytes(folder) + b"/deep/er/lat\xe9.txt", "wb") as stream:
        stream.write(b"nothing like the others at all")
    outputs = []
    for engine in ("duckdb", "spark"):
        out = tmp_path / f"{engine}.csv"
        extra = ["--engine", "spark", "--work-dir", str(tmp_path / "work")] if engine == "spark" else []
        result = runner.invoke(app, ["run", str(folder), "-t", "0.5", "--show-skipped", "-o", str(out), *extra])
        assert result.exit_code == 0, result.output
        skipped = sorted(line.strip() for line in result.stderr.splitlines() if line.startswith("  ") and ": " in line)
        outputs.append((out.read_bytes(), skipped))
    (duck, duck_skipped), (spark_pairs, spark_skipped) = outputs
    assert duck == spark_pairs and duck.count(b"\n") == 1 + 3  # a, _tmp/b, deep/er/c: 3 pairs
    assert b"loop" not in spark_pairs and b"far" not in spark_pairs
    name = "deep/er/lat\\xe9.txt"  # DuckDB reads it; the JVM cannot open it
    assert spark_skipped == sorted([*duck_skipped, f"{name}: not read by the Spark engine (a name that is not UTF-8)"])
    assert [line for line in duck_skipped if "broken" in line or "fifo" in line or "loop" in line] == [
        "deep/broken.txt: broken symlink",
        "deep/er/fifo: not a regular file",
        "loop/: symlink to a folder (not followed)",
    ]
    # a file given by name that Spark's readers leave out (it was read as no document, unsaid)
    for name in ("_notes.txt", ".notes.jsonl"):
        (tmp_path / name).write_text('{"text": "x"}\n')
        spark_run = ["--engine", "spark", "--work-dir", str(tmp_path / "work")]
        result = runner.invoke(app, ["run", str(tmp_path / name), "--lines", *spark_run])
        assert result.exit_code == 1 and "do not read a file whose name starts with . or _" in result.output


@pytest.mark.slow
def test_gzip_tables_and_parquet_folders_are_tables_as_on_duckdb(spark, tmp_path):
    """DuckDB reads `.csv.gz`, `.tsv.gz`, `.jsonl.gz` as tables and a folder holding only .parquet
    files as a Parquet dataset; Spark read each as binary files, skipped: 0 documents. And Spark
    numbered the rows of a dataset without an id column file by file."""
    import gzip

    fox = "the quick brown fox jumps over the lazy dog"
    (tmp_path / "t.csv.gz").write_bytes(gzip.compress(f"id,text\n1,{fox}\n2,{fox}!\n".encode()))
    (tmp_path / "t.tsv.gz").write_bytes(gzip.compress(f"id\ttext\n3\t{fox}?\n".encode()))
    (tmp_path / "t.jsonl.gz").write_bytes(gzip.compress(b'{"id":"j","text":"the quick brown fox jumps over it"}\n'))
    parts = tmp_path / "parts"
    parts.mkdir()
    pq.write_table(pa.table({"text": [fox + ".", "something else entirely"]}), parts / "part-0.parquet")
    pq.write_table(pa.table({"text": [fox + ","]}), parts / "part-1.parquet")
    (parts / "_SUCCESS").write_bytes(b"")
    inputs = [str(tmp_path / name) for name in ("t.csv.gz", "t.tsv.gz", "t.jsonl.gz", "parts")]
    duck, spark_pairs, summary = run_both(tmp_path, inputs, "--threshold", "0.5")
    assert duck == spark_pairs and duck.count(b"\n") > 10
    assert "documents: 7 read = 7 processed" in summary
    # a dataset without an id column is one table: its rows are numbered across its files in path
    # order (Spark numbered each file from 1: two documents with the id 1)
    duck, spark_pairs, summary = run_both(tmp_path, [str(parts)], "--threshold", "0.5")
    assert duck == spark_pairs and duck.startswith(b"id_a,id_b,jaccard,estimate\n1,3,") and duck.count(b"\n") == 2


@pytest.mark.slow
def test_a_parquet_name_on_a_file_that_is_not_parquet_is_one_line_on_both(spark, tmp_path):
    """Spark's reader failing on the input (a .parquet file that is not Parquet) ended in a Py4J
    traceback of a hundred lines; DuckDB said it in one line. Both now say it in one."""
    fake = tmp_path / "fake.parquet"
    fake.write_bytes(b"not parquet")
    duck, spark_error = errors_of_both(tmp_path, [str(fake)])
    for error in (duck, spark_error):
        assert error.startswith("Error: ") and error.count("\n") == 1 and "fake.parquet" in error, error
    assert "Parquet file" in spark_error


@pytest.mark.parametrize("inside", ["pairs/x.csv", "x.parquet"])
def test_an_output_inside_the_work_folder_is_refused_before_any_write(tmp_path, inside):
    """Pairs written into Spark's work folder among the stage tables (`-o work/pairs/x.csv`) made
    every later run there fail: Spark read the CSV as a part of the pairs table."""
    work = tmp_path / "w"
    (work / "pairs").mkdir(parents=True)
    folder = str(REPO / "data" / "clough")
    for work_dir in (str(work), f"file://{work}"):
        for option in (["--output", str(work / inside)], ["--export", f"survivors={work / inside}"]):
            done = runner.invoke(app, ["run", folder, "--engine", "spark", "--work-dir", work_dir, *option])
            assert done.exit_code == 2, done.output
            assert f"is inside --work-dir {work}, which holds the run's stage tables" in done.output
    assert sorted(p.name for p in work.rglob("*")) == ["pairs"]


@pytest.mark.slow
def test_utf16_files_are_named_so_alike_on_both_engines(spark, tmp_path):
    """A UTF-16 text file (Notepad's "Unicode", PowerShell's `>`) was skipped as a "binary file",
    and a UTF-16 CSV refused at "line 4: expected 2 fields ..., got 1: '\\x00'", a JSON lines file
    with "Invalid value": each is now named UTF-16, with the way to convert it, on both engines. A
    Latin-1 text that starts with the bytes of `ÿþ` (no NUL byte) is still a document."""
    fox = "the quick brown fox jumps over the lazy dog"
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "notepad.txt").write_bytes(f"{fox}\r\n".encode("utf-16"))
    (folder / "big-endian.txt").write_bytes(b"\xfe\xff" + f"{fox}\n".encode("utf-16-be"))
    (folder / "latin1.txt").write_bytes(f"\xff\xfe {fox}".encode("latin-1"))
    (folder / "plain.txt").write_bytes(f"{fox}!".encode())
    duck, spark_pairs, summary = run_both(tmp_path, [str(folder)], "--threshold", "0.5", "--show-skipped")
    assert duck == spark_pairs and len(duck.splitlines()) == 2, (duck, spark_pairs)
    assert "4 read = 2 processed + 0 empty + 2 skipped" in summary, summary
    reason = "UTF-16 text (byte order mark): dedup reads UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8"
    assert f"notepad.txt: {reason}" in summary and f"big-endian.txt: {reason}" in summary, summary
    duck_run = runner.invoke(app, ["run", str(folder), "--threshold", "0.5", "--show-skipped", "-q"])
    assert f"notepad.txt: {reason}" in duck_run.stderr
    tables = {
        "t.csv": ("id,text\n1,{fox}\n2,{fox}!\n", []),
        "t.csv.gz": ("id,text\n1,{fox}\n", []),
        "t.jsonl": ('{{"id": 1, "text": "{fox}"}}\n', []),
        "t.txt": ("{fox}\n{fox}!\n", ["--lines"]),
    }
    for name, (text, options) in tables.items():
        path = tmp_path / name
        data = text.format(fox=fox).encode("utf-16")
        path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
        duck_error, spark_error = errors_of_both(tmp_path, [str(path)], *options)
        expected = (
            f"Error: {path} is UTF-16 text (it starts with a byte order mark); dedup reads UTF-8: convert it first, "
            "e.g. with iconv -f UTF-16 -t UTF-8\n"
        )
        assert duck_error == spark_error == expected, (name, duck_error, spark_error)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_keep_by_gives_the_duckdb_survivors_on_spark(spark, tmp_path, suffix):
    """--keep-by on Spark: each row's key is read by Spark's readers as dedup.keep_by reads it with
    pyarrow (a list of values, numbers ascending or descending, NULL, NaN and empty CSV cells last),
    so the clusters and duplicates files are DuckDB's, byte for byte."""
    from test_keep_by import dated, reviews, times

    path = reviews(tmp_path, suffix)
    specs = ("split=test,validation,train", "priority:desc", "t:desc") + (
        ("d:desc", "ts", "tz:desc") if suffix == ".parquet" else ()
    )
    for spec in specs:
        if spec == "t:desc":  # integers past 2^53, ordered exactly (dedup.keep_by.split_keys)
            path = times(tmp_path, suffix)
        elif spec == "d:desc":  # a date, a naive time stamp, one in UTC: microseconds since 1970
            path = dated(tmp_path)
        outputs = {}
        for engine in ("duckdb", "spark"):
            files = [
                f"--export=duplicates={tmp_path / f'{engine}-d.csv'}",
                f"--export=clusters={tmp_path / f'{engine}-c.csv'}",
            ]
            work = ["--engine", "spark", "--work-dir", str(tmp_path / f"w-{spec}")] if engine == "spark" else []
            done = runner.invoke(app, ["run", str(path), "--keep-by", spec, "-q", *files, *work])
            assert done.exit_code == 0, done.output
            outputs[engine] = [(tmp_path / f"{engine}-{what}.csv").read_bytes() for what in "dc"]
        assert outputs["spark"] == outputs["duckdb"], spec
        assert outputs["duckdb"][0].count(b"\n") == (
            4 if spec.startswith(("split", "priority")) else 3
        )  # header, duplicates


@pytest.mark.slow
def test_a_ladder_gives_the_duckdb_survivors_on_spark_in_bounded_rounds(spark, tmp_path):
    """Line i is words 2i .. 2i+39 of one word stream: each line a near-duplicate of the two before
    it, a round of the verified rule decides three lines, and Spark ran a job per step of each. The
    rest is walked on the driver (dedup.index.clusters._walk): the same survivors."""
    import random

    rng = random.Random(5)
    words = [f"w{rng.randrange(10**9):09d}" for _ in range(2 * 600 + 40)]
    ladder = tmp_path / "ladder.txt"
    ladder.write_text("".join(" ".join(words[2 * i : 2 * i + 40]) + "\n" for i in range(600)))
    options = ["--lines", "--shingle-type", "word", "-k", "3", "-t", "0.8", "--pairs", "none", "-q"]
    duck, spark_file = tmp_path / "duckdb.csv", tmp_path / "spark.csv"
    done = runner.invoke(app, ["run", str(ladder), *options, "--export", f"survivors={duck}"])
    assert done.exit_code == 0, done.output
    spark_run = ["--engine", "spark", "--work-dir", str(tmp_path / "work"), "--export", f"survivors={spark_file}"]
    done = runner.invoke(app, ["run", str(ladder), *options, *spark_run])
    assert done.exit_code == 0, done.output
    assert spark_file.read_bytes() == duck.read_bytes()
    assert 190 <= duck.read_text().count("\n") - 1 <= 210  # about every third line


@pytest.mark.slow
def test_compressed_lines_and_tables_as_on_duckdb_compressed_folders_refused(spark, tmp_path):
    """Spark's line and table readers decompress a file named .gz or .zst, as the DuckDB engine now
    does: the same pairs. Its folder reader reads files as their bytes, so a compressed text file
    there (which DuckDB reads decompressed) is refused, as is a folder of JSON lines shards (which
    DuckDB reads as one table), each in one line, never read otherwise."""
    fox = "the quick brown fox jumps over the lazy dog"
    data = "".join(f"{fox} {i % 7}\nline {i} of other words entirely here\n" for i in range(40)).encode()
    (tmp_path / "lines.txt.gz").write_bytes(gzip.compress(data))
    with pa.output_stream(str(tmp_path / "t.jsonl.zst"), compression="zstd") as stream:
        stream.write(b"".join(b'{"id":"j%d","text":"%s %d"}\n' % (i, fox.encode(), i % 3) for i in range(9)))
    duck, spark_pairs, _ = run_both(tmp_path, [str(tmp_path / "lines.txt.gz")], "--lines", "-t", "0.5")
    assert duck == spark_pairs and duck.count(b"\n") > 100
    duck, spark_pairs, _ = run_both(tmp_path, [str(tmp_path / "t.jsonl.zst")], "-t", "0.5")
    assert duck == spark_pairs and duck.count(b"\n") > 5
    (tmp_path / "cut.txt.gz").write_bytes(gzip.compress(data)[:-30])
    duck_error, spark_error = errors_of_both(tmp_path, [str(tmp_path / "cut.txt.gz"), "--lines"])
    assert duck_error == spark_error and "damaged, or not gzip-compressed (Truncated compressed stream)" in duck_error
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "a.txt").write_text(fox)
    (folder / "b.txt.gz").write_bytes(gzip.compress(fox.encode()))
    shards = tmp_path / "shards"
    shards.mkdir()
    (shards / "README.md").write_text("# shards\n")
    (shards / "part-0.jsonl").write_text(f'{{"text": "{fox}"}}\n')
    for given, said in (
        (folder, "b.txt.gz is gzip-compressed, and --engine spark reads the text files of a folder"),
        (shards, "is a folder of jsonl shards, which --engine spark reads only as separate inputs"),
    ):
        refused = runner.invoke(app, ["run", str(given), "--engine", "spark", "--work-dir", str(tmp_path / "w")])
        assert refused.exit_code == 2 and said in refused.stderr and refused.stderr.count("\n") == 1, refused.output
