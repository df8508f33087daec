"""Exporting what a run found: pairs, clusters, the documents to drop or keep, an adjacency list."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow as pa

from .choices import Keep, What
from .clusters import build_clusters, has_table
from .output import FORMATS, check_writable, format_for, write_table

EXPORT_FORMATS = {**FORMATS, ".json": "json"}


QUERIES = {
    # every pair above the threshold
    What.pairs: "select id_a, id_b, jaccard, estimate from pairs order by jaccard desc, id_a, id_b",
    # every document of a cluster of two or more, with the id of the document kept for it
    What.clusters: """
        select c.id, k.id as survivor, c.cluster_size, c.is_survivor
        from clusters as c
        join clusters as k on k.cluster_id = c.cluster_id and k.is_survivor
        join documents as d on d.doc_id = c.doc_id
        where c.cluster_size > 1
        order by c.cluster_id, c.is_survivor desc, d.position
    """,
    # the documents to drop, each with the document kept in its place
    What.duplicates: """
        select c.id, k.id as survivor
        from clusters as c
        join clusters as k on k.cluster_id = c.cluster_id and k.is_survivor
        join documents as d on d.doc_id = c.doc_id
        where not c.is_survivor
        order by d.position
    """,
    # the deduplicated corpus: every document that is kept, in input order
    What.survivors: """
        select c.id from clusters as c join documents as d on d.doc_id = c.doc_id
        where c.is_survivor order by d.position
    """,
    # every document with the ids of the documents similar to it (akin's adjacency_list)
    What.adjacency: """
        with edges as (
            select doc_id_a as doc_id, id_b as other from pairs
            union all
            select doc_id_b as doc_id, id_a as other from pairs
        )
        select d.id, coalesce(list(e.other order by e.other) filter (where e.other is not null), []) as similar
        from documents as d
        left join edges as e on e.doc_id = d.doc_id
        group by d.id, d.position
        order by d.position
    """,
}


def export_format(path: Path) -> str:
    return format_for(path, EXPORT_FORMATS, "export")


def export_table(con: duckdb.DuckDBPyConnection, what: What | str, keep: Keep | str | None = None) -> pa.Table:
    """The rows of one export; clusters are (re)built when a keep rule is given or none exist yet."""
    what = What(what)
    if what is not What.pairs and what is not What.adjacency and (keep is not None or not has_table(con, "clusters")):
        build_clusters(con, keep or Keep.first)
    return con.sql(QUERIES[what]).to_arrow_table()


def write_export(table: pa.Table, path: Path, what: What | str) -> None:
    kind = check_writable(path, EXPORT_FORMATS, "export")
    if kind == "json":
        with path.open("w", encoding="utf-8", newline="\n") as stream:
            json.dump(_json_value(table, What(what)), stream, ensure_ascii=False, indent=1)
            stream.write("\n")
        return
    if kind == "csv":
        table = _lists_as_json(table)
    write_table(table, path)


def _json_value(table: pa.Table, what: What) -> object:
    rows = table.to_pylist()
    if what is What.adjacency:
        # JSON object keys are strings: an integer id (a line number) becomes "12".
        return {str(row["id"]): row["similar"] for row in rows}
    return rows


def _lists_as_json(table: pa.Table) -> pa.Table:
    """CSV has no lists: a list cell is written as its JSON text, e.g. ["a.txt","b.txt"]."""
    for index, field in enumerate(table.schema):
        if pa.types.is_list(field.type) or pa.types.is_large_list(field.type):
            values = [json.dumps(v, ensure_ascii=False) for v in table.column(index).to_pylist()]
            table = table.set_column(index, field.name, pa.array(values, pa.string()))
    return table
