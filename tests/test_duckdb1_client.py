"""A database a run leaves opens in a DuckDB 1.x client, which reads every table.

duckdb 1.x cannot be installed beside 2.x in one environment, so the test installs it with
`pip install --target` into a cache folder (once) and reads the database in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from conftest import REPO
from indexing import invoke

pytestmark = pytest.mark.slow  # installs duckdb 1.x once (a download), then subprocesses

CLIENT_VERSION = "1.5.6"  # the newest DuckDB 1.x on PyPI, as the duckdb CLI users have
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "dedup-tests" / f"duckdb-{CLIENT_VERSION}"

READ_ALL = """
import duckdb, json, sys
con = duckdb.connect(sys.argv[1], read_only=True)
tables = [r[0] for r in con.execute(
    "select table_name from duckdb_tables() union all "
    "select view_name from duckdb_views() where not internal order by 1").fetchall()]
counts = {t: con.execute(f'select count(*) from "{t}"').fetchall()[0][0] for t in tables}
print(json.dumps({"version": duckdb.__version__, "counts": counts, "pairs": con.execute(
    "select id_a, id_b, jaccard from pairs order by all").fetchall()}))
con.close()
"""


def duckdb1() -> Path:
    if not (CACHE / "duckdb").is_dir():
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(CACHE),
             f"duckdb=={CLIENT_VERSION}"],
            check=True,
        )  # fmt: skip
    return CACHE


def test_a_duckdb_1x_client_reads_every_table(tmp_path):
    db = tmp_path / "clough.duckdb"
    invoke("run", REPO / "data" / "clough", "--threshold", "0.5", "--db", db, "-q")
    invoke("remove", db, "orig_taska.txt")
    invoke("add", db, REPO / "data" / "clough" / "orig_taska.txt", "-q")
    copy = tmp_path / "copy.txt"  # a group of exact copies: pairs listed by the view from `copies`
    copy.write_bytes((REPO / "data" / "clough" / "orig_taska.txt").read_bytes())
    invoke("add", db, copy, "-q")
    done = subprocess.run(
        [sys.executable, "-c", READ_ALL, str(db)],
        env={**os.environ, "PYTHONPATH": str(duckdb1())},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["version"] == CLIENT_VERSION
    con = duckdb.connect(str(db), read_only=True)
    try:
        relations = (  # a lean index's pair tables are views over what it stores (tests/test_copy_groups.py)
            "select table_name from duckdb_tables() union all "
            "select view_name from duckdb_views() where not internal order by 1"
        )
        tables = [r[0] for r in con.execute(relations).fetchall()]
        expected = {t: con.execute(f'select count(*) from "{t}"').fetchall()[0][0] for t in tables}
        pairs = [list(r) for r in con.execute("select id_a, id_b, jaccard from pairs order by all").fetchall()]
    finally:
        con.close()
    assert {"documents", "signatures", "band_hashes", "pairs", "copies", "clusters", "runs", "stages"} <= set(expected)
    assert seen["counts"] == expected
    assert seen["pairs"] == pairs and pairs
    assert [sorted(Path(i).name for i in p[:2]) for p in pairs if p[2] == 1.0] == [["copy.txt", "orig_taska.txt"]]


def test_the_database_is_written_in_the_format_of_duckdb_1_2(tmp_path):
    # long strings compressed (1.0's format stored them as they are); a 1.2 or later client opens it
    db = tmp_path / "clough.duckdb"
    invoke("run", REPO / "data" / "clough", "--threshold", "0.5", "--db", db, "-q")
    con = duckdb.connect(str(db), read_only=True)
    try:
        [(tags,)] = con.execute("select tags from duckdb_databases() where database_name = 'clough'").fetchall()
    finally:
        con.close()
    assert tags["storage_version"] == "v1.2.0+"
