"""Each SQL file's header (reads, writes, params) says what its body does: the tables it reads
and writes, their columns, and exactly the parameters it binds."""

from __future__ import annotations

import re

import pytest

from dedup import sqlfiles, sqltext
from dedup.sqlfiles import TEMPLATE, fill, read_sql, sql_dir, used_parameters

FILES = sorted(str(path.relative_to(sql_dir())) for path in sql_dir().rglob("*.sql"))
# What Python fills into {{ fragments }}, for the check (small column lists, one table name).
FRAGMENTS = {
    "minhash_columns": sqltext.minhash_columns(4),
    "bucket_list": sqltext.bucket_list(2, 2),
    "equal_minhash_count": sqltext.equal_minhash_count(4),
    "shingle_windows": sqltext.shingle_windows(3),
    "token_windows": sqltext.token_windows(3),
    "shingle_fingerprint": sqltext.shingle_fingerprint(3),
    "shingle_text": sqltext.shingle_text("char", 3),
    "digest_fingerprint": "cast(conv(d, 16, -10) as bigint)",
    "table": "some_table",
    "batch": "some_table_0",
    "batches": "select * from temp.main.some_table",  # the tables of its batches (retained_gather.sql)
    "stored": "some_table_between",
    "database": "some_database",
    "columns": "doc_id, n_shingles",
    "pairs": "some_pairs",
    "retained": "retained_table",
    "documents": "documents",
    "rows": "temp.main.some_table",
    "groups": "some_database.main.copies",
    "side": "doc_id_a",
    "assigned": "doc_id_a = m.successor, id_a = m.id",  # the pairs' (between_rekey.sql)
    "swapped": "doc_id_a = doc_id_b, doc_id_b = doc_id_a",
    "candidates": "candidates_between",
}
# Fragments of sql/fragments/ that stages of both engines include as they are.
SHARED_FRAGMENTS = ("exact_copies", "copy_groups", "copies_expanded", "candidate_reps", "verified_counts")
NAME = r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){0,2}"
KEYWORDS = {"lateral", "unnest", "range", "select", "values"}


def body_of(text: str, method: str = "exact", path: str = "") -> str:
    """The statement without its comments, fragments filled (tokens by the char fragment, the
    shared bands of two copies by `method`'s, a shingle's rows by the dialect of `path`'s, the rows
    the shingles stage keeps by both fragments)."""
    dialect = "spark" if path.startswith("spark/") else "duckdb"
    tokens = read_sql("fragments/tokens_char.sql", "duckdb").text
    shared = {name: read_sql(f"fragments/{name}.sql", "duckdb").text for name in SHARED_FRAGMENTS}
    pieces = read_sql("fragments/pieces_char.sql", "duckdb").text
    fragments = {
        "tokens": tokens,
        "tokens_of_slices": tokens,
        "tokens_of_type": tokens,
        "tokens_of_pieces": tokens,
        "pieces": pieces,
        "keep_order": read_sql("fragments/keep_order.sql", "duckdb").text,
        "copy_pairs": read_sql("fragments/copy_pairs.sql", "duckdb").text,
        "across_groups": read_sql("fragments/across_groups.sql", "duckdb").text,
        "copy_shared_bands": read_sql(f"fragments/copy_shared_bands_{method}.sql", "duckdb").text,
        "copy_rows": read_sql("fragments/copy_rows.sql", "duckdb").text,
        "between_rows": read_sql("fragments/between_rows.sql", "duckdb").text,
        "shingle_texts": read_sql("fragments/shingle_texts.sql", "duckdb").text,
        "shingle_rows": read_sql("fragments/shingle_rows.sql", dialect).text,
        # both ways the shingles stage keeps its rows: every one, or those the cap leaves
        "kept_rows": ",\n".join(read_sql(f"fragments/kept_{way}.sql", dialect).text for way in ("all", "capped")),
        # both ways the candidates stage lists the pairs of representatives: for every member, or alone
        "candidate_rows": ",\n".join(
            read_sql(f"fragments/copies_{way}.sql", "duckdb").text for way in ("expanded", "between")
        ),
        **shared,
    }
    filled = text
    while TEMPLATE.search(filled):  # a fragment's own fragments too
        filled = fill(filled, {**fragments, **FRAGMENTS})
    lines = [line.split("--", 1)[0] for line in filled.splitlines()]
    return "\n".join(lines).lower()


def declared_tables(field: str) -> dict[str, list[str]]:
    """dedup's own parser of a header's tables (`a(x, y), b   (a note)` -> {"a": ["x", "y"], "b": []}),
    {{ fragments }} filled as in FRAGMENTS."""
    return sqlfiles.declared_tables(fill(field, FRAGMENTS))


def declared_parameters(field: str) -> set[str]:
    """`$k, $a_0 .. $a_{num_perm-1}` -> {"k", "a_*"}: a range stands for every name of its prefix."""
    names = set()
    for match in re.finditer(r"\$([a-z_][a-z0-9_]*)(?:\s*\.\.\s*\$[a-z_]+\{[^}]*\})?", field):
        is_range = match.group(0).find("..") >= 0
        names.add(re.sub(r"_0$", "_*", match.group(1)) if is_range else match.group(1))
    return names


def used_parameter_families(sql: str) -> set[str]:
    return {re.sub(r"_\d+$", "_*", name) if re.search(r"^[abc]_\d+$", name) else name for name in used_parameters(sql)}


def relations_read(body: str) -> set[str]:
    """Every relation after FROM or JOIN that is not a CTE of the statement itself."""
    ctes = set(re.findall(rf"(?:with|,|\A)\s*({NAME})\s+as\s*(?:materialized\s*)?\(", body))
    read = set(re.findall(rf"\b(?:from|join)\s+({NAME})", body))
    deleted = set(re.findall(rf"\bdelete from\s+({NAME})", body))  # a target, not a source
    return {name for name in read - ctes - deleted if name not in KEYWORDS}


def relations_written(body: str) -> set[str]:
    found = set(
        re.findall(rf"\b(?:insert into|update|delete from|drop table|create table if not exists)\s+({NAME})", body)
    )
    found |= set(re.findall(rf"\bcreate schema if not exists\s+({NAME})", body))
    return found


def helper_tables(text: str) -> set[str]:
    """The tables a multi-statement (Spark) file creates section by section (`-- table: name` lines)."""
    return set(re.findall(rf"^--\s*table:\s*({NAME})\s*$", text, flags=re.MULTILINE))


@pytest.mark.parametrize("path", FILES)
def test_header_params_are_exactly_the_parameters_of_the_body(path):
    file = read_sql(path, "duckdb")
    assert "params" in file.header, f"{path} has no params: line"
    declared = set() if file.header["params"].startswith("(none)") else declared_parameters(file.header["params"])
    shares_bands = "{{ copy_shared_bands }}" in file.text or "{{ copy_rows }}" in file.text
    methods = ("lsh", "exact", "signature") if shares_bands else ("exact",)
    used = set().union(*(used_parameter_families(body_of(file.text, method, path)) for method in methods))
    assert declared == used, path  # every parameter the statement may bind, by any method


@pytest.mark.parametrize("path", [p for p in FILES if not p.startswith("fragments/")])
def test_header_reads_every_relation_the_body_reads_and_only_those(path):
    file = read_sql(path, "duckdb")
    body = body_of(file.text, path=path)
    declared = declared_tables(file.header.get("reads", ""))
    read = relations_read(body) - helper_tables(file.text)  # a later section reads an earlier one
    assert set(declared) == read, path
    every_column = re.search(r"\bselect \*", body) is not None
    for table, columns in declared.items():
        for column in columns:
            if "*" in column or ".." in column or every_column:
                continue
            assert re.search(rf"\b{re.escape(column)}\b", body), f"{path}: {table}.{column} is not in the body"


@pytest.mark.parametrize("path", [p for p in FILES if not p.startswith("fragments/")])
def test_header_writes_what_the_body_or_the_engine_writes(path):
    file = read_sql(path, "duckdb")
    body = body_of(file.text, path=path)
    declared = set(declared_tables(file.header.get("writes", "")))
    written = relations_written(body)
    if file.header.get("stage"):  # a stage is a query; the engine creates the table named for it
        # (and, on Spark, the helper tables of its `-- table:` sections, the last one the stage's)
        assert declared == {file.header["stage"]} | helper_tables(file.text) and not written, path
    elif written:
        assert written <= declared, path


def test_every_stage_declares_the_scope_its_rows_have():
    """A stage of one document's rows (`scope: documents`: an added document runs it alone, a
    removed one's rows are deleted by doc_id) reads only such tables and writes a doc_id; a pair
    stage (`scope: pairs`) writes doc_id_a and doc_id_b; a stage of the whole corpus (`scope:
    corpus`, the boilerplate stages, which run only with an option) writes no pair's rows (a
    document's rows it writes depend on every document, as mostly_boilerplate's), and a stage of
    one document's rows may read it (`dedup add` and `remove` then refuse). The index commands
    trust these headers."""
    from dedup.stages import all_stages, optional_stages, stage_names

    scopes = {}
    for stage in all_stages():
        assert stage.scope in ("documents", "groups", "pairs", "corpus"), stage.file
        assert stage.scope != "corpus" or stage.name in optional_stages(), stage.file
        scopes.setdefault(stage.name, stage.scope)
        assert scopes[stage.name] == stage.scope, f"{stage.file}: its variants declare another scope"
        (written,) = declared_tables(stage.header["writes"]).values()
        if stage.scope == "corpus":
            assert "doc_id_a" not in written, stage.file
        elif stage.scope in ("documents", "groups"):  # a group's rows: one a member, read from documents
            assert "doc_id" in written and "doc_id_a" not in written, stage.file
            read = set(declared_tables(stage.header["reads"])) - {"raw_documents"}
            assert read <= set(stage_names("documents") + stage_names("corpus")), f"{stage.file} reads a pair table"
        else:
            assert {"doc_id_a", "doc_id_b"} <= set(written), stage.file
    # the groups of copies before the pairs, which a lean database stores between them
    ordered = tuple(name for name in stage_names() if name not in stage_names("corpus"))
    assert ordered == (*stage_names("documents"), *stage_names("groups"), *stage_names("pairs"))


def test_every_count_of_a_run_is_the_rows_of_one_stage_of_each_method():
    """The summary and the runs table take shingles, processed, candidates and pairs from the rows
    of the stage whose `counts:` header names them (a wrong name would set nothing the summary
    reads, and the count would stay 0)."""
    from dedup.reports import Summary
    from dedup.settings import Sketch
    from dedup.stages import pipeline_stages

    fields = set(Summary.__dataclass_fields__)
    for method in ("lsh", "signature", "exact"):
        counted = [s.counts for s in pipeline_stages(Sketch(method=method)) if s.counts]
        assert sorted(counted) == ["candidates", "pairs", "processed", "shingles"], method
        assert set(counted) <= fields


def test_tables_needed_reads_the_headers_of_the_queries():
    """What the clusters, the report and a query need is what their queries' headers read."""
    from dedup.sqlfiles import declared_tables as parsed
    from dedup.sqlfiles import tables_needed

    assert tables_needed("cluster_members_all", "cluster_member_edges", "survivor_ranks", dialect="duckdb") == (
        "documents",
        "signatures",
        "pairs",
        "survivor_keys",  # a work table of the build (dedup.index.clusters.WORK)
    )
    assert tables_needed("query_jaccard", dialect="duckdb") == ("shingles", "documents")
    assert parsed("raw_documents(position, id, text)   (an Arrow table)") == {
        "raw_documents": ["position", "id", "text"]
    }
    assert parsed("(nothing: one row)") == {}


def test_queries_sit_in_one_folder_per_purpose_under_unique_names():
    from dedup.sqlfiles import query_paths

    root = sql_dir()
    assert not [*root.glob("queries/*.sql"), *root.glob("*/queries/*.sql")], "a query outside the purpose folders"
    paths = query_paths()  # refuses two queries of one name
    folders = {path.split("/")[1] for path in paths.values()}
    assert folders == {"bookkeeping", "staging", "clusters", "index", "export", "report", "audit"}
    for file in root.glob("*/queries/*/*.sql"):  # a dialect's own query sits where the DuckDB one does
        duckdb_file = root / "queries" / file.parent.name / file.name
        assert duckdb_file.exists() or not list(root.glob(f"queries/*/{file.name}")), file
