"""Building small indexes for the index/cluster/export tests: a table of documents, a run with --db."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from dedup.cli import app


def write_jsonl(path: Path, docs: dict[str, str], extra: bool = False) -> Path:
    with path.open("w", encoding="utf-8") as stream:
        for number, (doc_id, text) in enumerate(docs.items()):
            row = {"id": doc_id, "text": text}
            if extra:
                row["source"] = f"s{number % 3}"
            stream.write(json.dumps(row) + "\n")
    return path


def invoke(*args: object) -> object:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def make_index(tmp_path: Path, docs: dict[str, str], name: str = "index", *options: object) -> Path:
    table = write_jsonl(tmp_path / f"{name}.jsonl", docs)
    db = tmp_path / f"{name}.duckdb"
    invoke("run", table, "--db", db, "-q", *options)
    return db


def rows(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def keeps_every_table(db: Path) -> bool:
    """Whether the index keeps every stage's table (--keep-all-tables), not the lean layout."""
    return bool(rows(db, "select count(*) from duckdb_tables() where table_name = 'shingles'")[0][0])


def result_tables(db: Path) -> dict[str, set]:
    """The id-level content of an index: what must not depend on how it was built (of a lean
    index, what it keeps: no shingles, each document's shingle count of the signatures)."""
    full = keeps_every_table(db)
    return {
        "documents": set(rows(db, "select id, position, text, norm from documents")),
        "signatures": set(
            rows(
                db,
                f"select d.id, s.{'* exclude (doc_id)' if full else 'n_shingles'} "
                "from signatures s join documents d using (doc_id)",
            )
        ),
        "shingles": set(rows(db, "select d.id, s.fingerprint from shingles s join documents d using (doc_id)"))
        if full
        else set(),
        "band_hashes": set(
            rows(db, "select d.id, b.band, b.bucket from band_hashes b join documents d using (doc_id)")
        ),
        "candidates": set(
            rows(
                db,
                """select least(a.id, b.id), greatest(a.id, b.id), c.shared_bands from candidates c
                   join documents a on a.doc_id = c.doc_id_a join documents b on b.doc_id = c.doc_id_b""",
            )
        ),
        "verified": set(
            rows(
                db,
                """select least(a.id, b.id), greatest(a.id, b.id), v.intersection, v.union_size, v.jaccard
                   from verified v join documents a on a.doc_id = v.doc_id_a
                   join documents b on b.doc_id = v.doc_id_b""",
            )
        ),
        "pairs": rows(
            db,
            "select least(id_a, id_b) as a, greatest(id_a, id_b) as b, jaccard, estimate from pairs "
            "order by jaccard desc, a, b",
        ),
    }
