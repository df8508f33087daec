"""--keep-by: survivors preferred by a column of a table input, before --keep (dedup.keep_by).

The survivor rules against their definition (tests/reference.py: greedy_survivors, walking the
documents by key, then --keep, then input position) on hand-made graphs, and end to end through
the CLI and the API on Parquet, CSV and JSON lines: a test split is protected from its train copies.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import greedy_survivors
from test_survivors import graph_tables, graphs, survivors, walk_order
from typer.testing import CliRunner

import dedup
from dedup.choices import Keep, Resolve
from dedup.cli import app
from dedup.engines.duckdb import DuckDBEngine
from dedup.errors import UsageError
from dedup.index.clusters import build_clusters
from dedup.keep_by import KeepBy, split_keys

runner = CliRunner()
BASE = "the quick brown fox jumps over the lazy dog, then runs into the forest and out again. " * 3


@given(graph=graphs(), keep=st.sampled_from(list(Keep)), data=st.data())
def test_survivors_walk_the_keys_first_then_the_keep_order(tmp_path_factory, graph, keep, data):
    texts, positions, group_edges = graph
    # integers past 2^53 that a float ties (2^60 + 1 is 2^60 as a float): ordered exactly by their low part
    numbers = [None, 0.0, 1.0, 2.5, 2**60, 2**60 + 1, 2**60 + 2047, 2**60 + 2048, -(2**60) - 1, -(2**60), 2.0**62]
    keys = data.draw(st.lists(st.sampled_from(numbers), min_size=len(texts), max_size=len(texts)))
    descending = data.draw(st.booleans())
    key, low = split_keys(
        pa.array([None if k is None else float(k) for k in keys], pa.float64()), descending, lambda: keys
    )
    con = duckdb.connect(str(tmp_path_factory.mktemp("keys") / "graph.duckdb"))
    pairs = graph_tables(con, texts, positions, group_edges)
    con.register("hand_keys", pa.table({"position": pa.array(positions, pa.int64()), "key": key, "key_low": low}))
    con.execute("create table document_keys as select * from hand_keys")
    build_clusters(DuckDBEngine(con), keep, Resolve.verified, "k")
    got = survivors(con)
    con.close()
    by_keep = walk_order(keep, texts, positions)  # stable: ties in the key keep the --keep order
    sign = -1 if descending else 1
    exact = [None if k is None else sign * Fraction(k) for k in keys]
    order = sorted(by_keep, key=lambda d: (exact[int(d[1:]) - 1] is None, exact[int(d[1:]) - 1] or 0))
    assert got == greedy_survivors(order, pairs)


def test_the_components_rule_keeps_the_first_by_key(tmp_path):
    con = duckdb.connect(str(tmp_path / "graph.duckdb"))
    graph_tables(con, ["a", "b", "c"], [0, 1, 2], {(1, 2): 0.8, (2, 3): 0.8})
    con.execute(
        "create table document_keys as select * from (values (0, 2.0, 0), (1, null, null), (2, 1.0, 0)) "
        "t(position, key, key_low)"
    )
    build_clusters(DuckDBEngine(con), Keep.first, Resolve.components, "k")
    assert {doc for doc, (kept, _) in survivors(con).items() if kept == doc} == {"d3"}


def reviews(tmp_path, suffix: str):
    """Six reviews: d1 (train) has a test copy d2 and a near copy d3 (test); d4, d5 are train copies
    with priorities; d6 stands alone."""
    rows = [
        ("d1", BASE, "train", 3),
        ("d2", BASE, "test", 2),
        ("d3", BASE + "a test review", "test", None),
        ("d4", "another review " * 20, "train", 5),
        ("d5", "another review " * 20 + "!", "train", 1),
        ("d6", "unrelated words here " * 10, "validation", 0),
    ]
    path = tmp_path / f"reviews{suffix}"
    columns = ["id", "text", "split", "priority"]
    if suffix == ".parquet":
        pq.write_table(pa.table(dict(zip(columns, map(list, zip(*rows, strict=True)), strict=True))), path)
    elif suffix == ".csv":
        with path.open("w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(columns)
            writer.writerows([[c if c is not None else "" for c in row] for row in rows])
    else:
        path.write_text("".join(json.dumps(dict(zip(columns, row, strict=True))) + "\n" for row in rows))
    return path


def duplicates(path) -> dict[str, str]:
    with path.open() as file:
        return {row["id"]: row["survivor"] for row in csv.DictReader(file)}


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_a_test_split_is_kept_over_its_train_copies(tmp_path, suffix):
    path = reviews(tmp_path, suffix)
    out = tmp_path / "dup.csv"
    options = ["--threshold", "0.8", "--export", f"duplicates={out}", "-q"]
    done = runner.invoke(app, ["run", str(path), *options])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"d2": "d1", "d3": "d1", "d5": "d4"}  # --keep first: the train review
    done = runner.invoke(app, ["run", str(path), *options, "--keep-by", "split=test,validation,train"])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"d1": "d2", "d3": "d2", "d5": "d4"}
    done = runner.invoke(app, ["run", str(path), *options, "--keep-by", "priority"])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"d1": "d2", "d3": "d2", "d4": "d5"}  # NULL last: d3 never first
    done = runner.invoke(app, ["run", str(path), *options, "--keep-by", "priority:desc", "--keep", "longest"])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"d2": "d1", "d3": "d1", "d5": "d4"}


def test_an_index_keeps_its_keys_through_add_remove_and_explain(tmp_path):
    path = reviews(tmp_path, ".parquet")
    db = tmp_path / "index.duckdb"
    done = runner.invoke(app, ["run", str(path), "--db", str(db), "--keep-by", "split=test,train", "-q"])
    assert done.exit_code == 0, done.output
    index = dedup.Index(db)
    assert {r["id"]: r["survivor"] for r in index.export("duplicates").to_pylist()} == {
        "d1": "d2",
        "d3": "d2",
        "d5": "d4",
    }
    new = tmp_path / "new.parquet"
    pq.write_table(pa.table({"id": ["n1"], "text": [BASE + "!"], "split": ["train"], "priority": [9]}), new)
    index.add(new)
    assert index.export("duplicates").to_pylist()[-1] == {
        "id": "n1",
        "survivor": "d2",
        "jaccard": pytest.approx(0.98, abs=0.02),
    }
    index.remove("d2")  # the test copy gone: d3, the other test review, is kept first
    assert {r["id"]: r["survivor"] for r in index.export("duplicates").to_pylist()} == {
        "d1": "d3",
        "n1": "d3",
        "d5": "d4",
    }
    done = runner.invoke(app, ["explain", str(db), "d1"])
    assert done.exit_code == 0, done.output
    assert (
        "d1: dropped for d3 (exact Jaccard" in done.stdout and "--keep-by split=test,train, --keep first" in done.stdout
    )
    done = runner.invoke(app, ["clusters", str(db), "--keep", "longest"])  # the keys stay, --keep breaks ties
    assert done.exit_code == 0, done.output
    index.add(documents=pa.table({"id": ["m1"], "text": [BASE], "split": ["test"]}))  # an exact copy, test
    survivors_ = {r["id"] for r in index.export("survivors").to_pylist()}
    assert "d3" in survivors_ and "m1" not in survivors_  # d3 is longer, m1 a copy of d1's text
    done = runner.invoke(app, ["run", str(path), "--db", str(db), "--replace", "-q"])  # without: the keys go
    assert done.exit_code == 0, done.output
    con = duckdb.connect(str(db), read_only=True)
    assert not con.sql("select * from duckdb_tables() where table_name = 'document_keys'").fetchall()
    assert con.sql("select distinct keep_by from clusters").fetchall() == [(None,)]
    con.close()


def test_the_api_takes_keep_by_on_documents_in_memory(tmp_path):
    table = pa.table({"id": ["a", "b"], "text": [BASE, BASE + "!"], "score": [0.1, 0.7]})
    out = tmp_path / "dup.csv"
    dedup.run(table, keep_by="score:desc", exports={"duplicates": out})
    assert duplicates(out) == {"a": "b"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--keep-by", "nope"], "no --keep-by column 'nope'; columns are 'id', 'text', 'split', 'priority'"),
        (["--keep-by", "split"], "--keep-by column 'split' holds text, not numbers: give the order of its values"),
        (["--keep-by", "split=test,test"], "give each value once"),
        (["--keep-by", "=a,b"], "names no column"),
    ],
)
def test_a_keep_by_that_cannot_order_is_refused_in_one_line(tmp_path, options, message):
    done = runner.invoke(app, ["run", str(reviews(tmp_path, ".parquet")), *options, "-q"])
    assert done.exit_code in (1, 2)
    assert message in done.stderr and "Traceback" not in done.output


def test_keep_by_on_a_folder_is_a_usage_error(tmp_path):
    (tmp_path / "a.txt").write_text(BASE)
    done = runner.invoke(app, ["run", str(tmp_path), "--keep-by", "split=test", "-q"])
    assert done.exit_code == 2
    assert "--keep-by split=test reads a column of a table input" in done.stderr


def test_adding_a_folder_to_an_index_kept_by_a_column_names_the_rule(tmp_path):
    db = tmp_path / "index.duckdb"
    done = runner.invoke(
        app, ["run", str(reviews(tmp_path, ".parquet")), "--db", str(db), "--keep-by", "split=test", "-q"]
    )
    assert done.exit_code == 0, done.output
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "a.txt").write_text(BASE)
    done = runner.invoke(app, ["add", str(db), str(folder)])
    assert done.exit_code == 2
    assert (
        f"--keep-by split=test reads a column of a table input (Parquet, CSV, JSON lines); {folder} is not one"
        in done.stderr
    )


def test_keys_by_the_column_type():
    def keyed(spec: str, values: list, kind: pa.DataType | None = None) -> list[tuple]:
        key, low = KeepBy.parse(spec).keys(pa.chunked_array([pa.array(values, kind)]), "t")
        return list(zip(key.to_pylist(), low.to_pylist(), strict=True))

    assert keyed("s=b,a", ["a", "b", None, "c"]) == [(1.0, 0), (0.0, 0), (2.0, 0), (2.0, 0)]
    assert keyed("n:desc", [1, None, 0]) == [(-1.0, 0), (None, None), (0.0, 0)]
    key, _ = KeepBy.parse("n:desc").keys(pa.chunked_array([[0]]), "t")
    assert str(key[0]) == "0.0"  # 0 - 0 is +0.0, not -0.0
    assert keyed("f", [1.5, float("nan")]) == [(1.5, 0), (None, None)]
    assert keyed("b=true", [True, False]) == [(0.0, 0), (1.0, 0)]
    # integers past 2^53 (nanosecond times, snowflake ids) raised "Integer value ... not in range";
    # as floats they would tie: the key is the value rounded down to a multiple of 2048, and the rest
    big = 1_700_000_000_123_456_789
    assert keyed("n", [big, big + 1, -big]) == [
        (float(big - big % 2048), big % 2048),
        (float(big - big % 2048), big % 2048 + 1),
        (float(-big - (-big) % 2048), (-big) % 2048),
    ]
    assert keyed("n", [2**64 - 1], pa.uint64()) == [(float(2**64 - 2048), 2047)]
    assert keyed("t", [str(big), "", "1.5"]) == [(float(big - big % 2048), big % 2048), (None, None), (1.5, 0)]
    assert keyed("n:desc", [big]) == [(-float(big - big % 2048), -(big % 2048))]
    assert str(KeepBy.parse("q:asc")) == "q" and str(KeepBy.parse("q:desc")) == "q:desc"
    with pytest.raises(UsageError):
        KeepBy.parse("s=")


def times(tmp_path, suffix: str):
    """Three copies keyed by nanosecond times one apart (t), past 2^53: as floats they tie."""
    t = 1_700_000_000_123_456_789
    rows = [("old", BASE, t), ("mid", BASE, t + 1), ("new", BASE, t + 2)]
    path = tmp_path / f"times{suffix}"
    if suffix == ".parquet":
        pq.write_table(pa.table({name: [r[i] for r in rows] for i, name in enumerate(("id", "text", "t"))}), path)
    elif suffix == ".csv":
        path.write_text("id,text,t\n" + "".join(f'{r[0]},"{r[1]}",{r[2]}\n' for r in rows))
    else:
        path.write_text("".join(json.dumps({"id": r[0], "text": r[1], "t": r[2]}) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_big_integer_keys_order_exactly_end_to_end(tmp_path, suffix):
    """--keep-by t:desc keeps the newest of three copies keyed by nanosecond times one apart: an
    int64 column past 2^53 raised "Integer value ... not in range"; as floats they tied and --keep
    first kept the oldest."""
    out = tmp_path / "dup.csv"
    done = runner.invoke(
        app, ["run", str(times(tmp_path, suffix)), "-q", "--keep-by", "t:desc", "--export", f"duplicates={out}"]
    )
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"old": "new", "mid": "new"}


@pytest.mark.parametrize("spec", ["split=test,train", "priority"])
def test_a_key_missing_from_a_whole_part_of_json_lines_is_null_there(tmp_path, monkeypatch, spec):
    """JSON lines are read in parts of 16 MiB: a --keep-by key absent from every line of one part gave
    "no --keep-by column" though later lines hold it. It is NULL there, as in the file read whole."""
    from dedup.corpus import tables

    monkeypatch.setattr(tables, "PART_BYTES", 200)  # a part of a line or two
    rows = [{"id": f"n{i}", "text": f"untagged document number {i} " * 3} for i in range(6)]
    rows += [{"id": "t1", "text": BASE, "split": "train", "priority": 2}]
    rows += [{"id": "t2", "text": BASE + "!", "split": "test", "priority": 1}]
    path = tmp_path / "late.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "dup.csv"
    done = runner.invoke(app, ["run", str(path), "-t", "0.8", "-q", "--keep-by", spec, "--export", f"duplicates={out}"])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"t1": "t2"}
    path.write_text("".join(json.dumps(row) + "\n" for row in rows[:6]))  # no line holds it: refused
    done = runner.invoke(app, ["run", str(path), "-q", "--keep-by", spec, "--export", f"duplicates={out}"])
    assert done.exit_code == 1 and f"no --keep-by column {spec.split('=')[0]!r}" in done.stderr


def test_a_latin1_cell_of_a_csv_keep_by_column_is_read_as_its_row_is(tmp_path):
    """A CSV's cells that are not UTF-8 are read as Latin-1 (as its texts are); the --keep-by column
    was cast to UTF-8 text and raised "Invalid UTF8 payload", a traceback."""
    path = tmp_path / "latin1.csv"
    rows = [b"id,text,split", f'a,"{BASE}",train'.encode(), f'b,"{BASE}!",r\xe9serve'.encode("latin-1")]
    path.write_bytes(b"\n".join(rows) + b"\n")
    out = tmp_path / "dup.csv"
    options = ["-t", "0.8", "-q", "--export", f"duplicates={out}"]
    done = runner.invoke(app, ["run", str(path), *options, "--keep-by", "split=réserve,train"])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"a": "b"}
    done = runner.invoke(app, ["run", str(path), *options, "--keep-by", "split"])  # text, not numbers: one line
    assert done.exit_code == 1 and "holds text, not numbers" in done.stderr


def test_a_listed_value_no_row_holds_is_named_and_a_second_keep_by_is_refused(tmp_path):
    """`--keep-by split=tset,train` (a typo): test rows were walked after train rows and dropped for
    them, silently. The summary names the value no row holds. A second --keep-by replaced the first,
    silently: it is refused."""
    path = reviews(tmp_path, ".parquet")
    done = runner.invoke(app, ["run", str(path), "-t", "0.8", "--keep-by", "split=tset,holdout,train"])
    assert done.exit_code == 0, done.output
    assert "note: --keep-by split=tset,holdout,train: no row's 'split' is 'tset', 'holdout'" in done.stderr
    done = runner.invoke(app, ["run", str(path), "-t", "0.8", "--keep-by", "split=test,train"])
    assert done.exit_code == 0 and "no row's" not in done.stderr
    done = runner.invoke(app, ["run", str(path), "--keep-by", "split=test,train", "--keep-by", "priority"])
    assert done.exit_code == 2
    assert done.stderr == (
        "Error: --keep-by split=test,train --keep-by priority: give --keep-by once "
        "(one column orders the survivors before --keep)\n"
    )


def test_an_index_kept_by_an_earlier_dedup_gets_its_low_parts_on_a_change(tmp_path):
    """An index whose document_keys has no key_low (dedup before 2026-11-29) is given the column,
    0 for its float keys, when a command opens it to change it; add then rebuilds its clusters."""
    path = reviews(tmp_path, ".parquet")
    db = tmp_path / "index.duckdb"
    done = runner.invoke(app, ["run", str(path), "-t", "0.8", "-q", "--keep-by", "priority", "--db", str(db)])
    assert done.exit_code == 0, done.output
    with duckdb.connect(str(db)) as con:
        con.execute("alter table document_keys drop column key_low")
    more = tmp_path / "more.parquet"
    pq.write_table(pa.table({"id": ["d7"], "text": [BASE + "more"], "split": ["train"], "priority": [0]}), more)
    done = runner.invoke(app, ["add", str(db), str(more), "-q"])
    assert done.exit_code == 0, done.output
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(*), sum(key_low) from document_keys").fetchone() == (7, 0)
        assert con.execute("select survivor from clusters where id = 'd1'").fetchone() == ("d7",)


@pytest.mark.parametrize("kind", [pa.int8(), pa.int16(), pa.int32(), pa.uint8(), pa.uint32(), pa.uint64()])
def test_every_integer_type_is_keyed_as_its_numbers(kind):
    column = pa.chunked_array([pa.array([3, None, 1], kind)])
    key, low = KeepBy.parse("n:desc").keys(column, "t")
    assert key.to_pylist() == [-3.0, None, -1.0] and low.to_pylist() == [0, None, 0]


def dated(tmp_path):
    """Three copies with a date (d), a naive time stamp (ts) and one in UTC (tz): c is the newest by
    each, a the oldest, b between."""
    import datetime as dt

    days = [dt.date(2023, 5, 1), dt.date(2024, 1, 1), dt.date(2024, 6, 30)]
    stamps = [
        dt.datetime(2024, 1, 1, 12, 0, 0, 1),
        dt.datetime(2024, 1, 1, 12, 0, 0, 2),
        dt.datetime(2024, 1, 1, 12, 0, 0, 3),
    ]
    table = pa.table(
        {
            "id": ["a", "b", "c"],
            "text": [BASE] * 3,
            "d": days,
            "ts": pa.array(stamps, pa.timestamp("us")),
            "tz": pa.array(stamps, pa.timestamp("us", "UTC")),
        }
    )
    path = tmp_path / "dated.parquet"
    pq.write_table(table, path)
    return path


@pytest.mark.parametrize("column", ["d", "ts", "tz"])
def test_keep_by_a_date_or_a_time_stamp_keeps_the_newest_with_desc(tmp_path, column):
    """`--keep-by date:desc` on a date or timestamp column was refused; keeping the newest copy is
    the commonest preference. Microseconds since 1970 order them."""
    out = tmp_path / "dup.csv"
    path = str(dated(tmp_path))
    done = runner.invoke(app, ["run", path, "-q", "--keep-by", f"{column}:desc", "--export", f"duplicates={out}"])
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"a": "c", "b": "c"}
    done = runner.invoke(
        app, ["run", path, "-q", "--keep-by", column, "--keep", "longest", "--export", f"duplicates={out}"]
    )
    assert done.exit_code == 0, done.output
    assert duplicates(out) == {"b": "a", "c": "a"}
