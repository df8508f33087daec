"""The pipeline's stages (sql/NN_*.sql) and a run compiled from its settings into a `Plan`.

A stage is compiled once into a Statement (dedup.engines): its generated column lists filled,
its parameters bound. The same value fingerprints the stage (resume) and runs it. A Plan holds
every statement of a run that its settings shape, compiled before any engine opens, so that
running it (dedup.runner) needs nothing more from the settings (the staging schema's statements,
the same for every run, come from sql/queries/staging/ as the runner needs them).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from . import sqltext
from .bindings import bindings
from .choices import SHINGLINGS, ShingleType
from .engines import Statement, engine_kind
from .settings import Sketch
from .sqlfiles import bind, declared_tables, fill, fragment, parse_header, query, query_paths, read_sql, sql_dir


@dataclass(frozen=True)
class Stage:
    file: str
    name: str
    header: dict[str, str]

    @property
    def variant(self) -> str | None:
        """'exact' for 05_candidates_exact.sql: stages with variants are picked by an option."""
        stem = Path(self.file).stem.split("_", 1)[1]
        return None if stem == self.name else stem.removeprefix(self.name + "_")

    @property
    def batched_on(self) -> str | None:
        """The table this stage's batches are cut from ('batch:' header), on engines that batch."""
        return self.header.get("batch")

    @property
    def scope(self) -> str:
        """What a row of the stage's table belongs to ('scope:' header): 'documents' (one
        document's rows, made from that document alone: an added document runs these stages
        alone, a removed one's rows are deleted) or 'pairs' (rows of two documents)."""
        return self.header["scope"]

    @property
    def tables_read(self) -> dict[str, list[str]]:
        """The tables its `reads:` header names, with the columns listed."""
        return declared_tables(self.header["reads"])

    @property
    def reads_inputs(self) -> bool:
        """Whether the stage reads the inputs as read (`raw_documents`, registered by the caller)."""
        return "raw_documents(" in self.header["reads"]

    @property
    def counts(self) -> str | None:
        """The run's count that the stage's rows are ('counts:' header): shingles, processed
        (documents with shingles), candidates or pairs, in the summary and the runs table."""
        return self.header.get("counts")

    @property
    def kept(self) -> tuple[str, ...] | None:
        """What a lean database keeps of the stage's table ('lean:' header): None (all of it, no
        header), () (`none`: nothing, recomputed where a statement reads it) or the columns kept."""
        value = self.header.get("lean")
        if value is None or self.between:
            return None
        listed = value.split("(")[0].strip()
        return () if listed == "none" else tuple(column.strip() for column in listed.split(","))

    @property
    def between(self) -> bool:
        """Whether a lean database keeps of the stage's pair table the rows between distinct texts
        only, by their groups' representatives ('lean: between copies'), a view of the stage's name
        listing them for every member of the groups and the rows within a group from the copies
        table (Layout.stored)."""
        return self.header.get("lean", "").split("(")[0].strip() == "between copies"

    @property
    def pair_ids(self) -> bool:
        """Whether the stage's pair table holds its documents' ids beside their doc_ids (id_a, id_b:
        the pairs), which follow them wherever a row's doc_ids change."""
        return "id_a" in declared_tables(self.header["writes"]).get(self.name, [])

    @property
    def when(self) -> str | None:
        """The option of the sketch without which the stage does not run ('when:' header): the
        boilerplate stage runs only with --max-shingle-df. None: it always runs."""
        return self.header.get("when")

    @property
    def methods(self) -> tuple[str, ...] | None:
        """The --method values this stage runs for ('methods:' header); None means every method."""
        return tuple(self.header["methods"].split()) if "methods" in self.header else None


@cache
def all_stages() -> tuple[Stage, ...]:
    stages = []
    for path in sorted(sql_dir().glob("*.sql")):
        header = parse_header(path.read_text(encoding="utf-8"))  # the shared file's: every dialect's stages
        stages.append(Stage(file=path.name, name=header["stage"], header=header))
    return tuple(stages)


def pipeline_stages(sketch: Sketch) -> list[Stage]:
    """The stages of a run in order, with the shingling and method variants that the options ask for."""
    return [
        s
        for s in all_stages()
        if s.variant in (None, sketch.shingle_type, sketch.method)
        and (s.methods is None or sketch.method in s.methods)
        and (s.when is None or getattr(sketch, s.when) is not None)
    ]


def stage_names(scope: str | None = None) -> tuple[str, ...]:
    """The names of the stages (of one scope), in order: the tables a run makes."""
    return tuple(dict.fromkeys(s.name for s in all_stages() if scope is None or s.scope == scope))


def optional_stages() -> tuple[str, ...]:
    """The stages that run only with an option ('when:' header): an index may lack their tables."""
    return tuple(dict.fromkeys(s.name for s in all_stages() if s.when is not None))


# The relations a tokens fragment may read: our own fixed list, never user text.
SHINGLE_SOURCES = ("documents", "document_slices", "chosen_documents")


def shingle_text_fragments(shingle_type: str, k: int) -> dict[str, str]:
    """The fragments of the queries that name shingles by their texts (DuckDB: `dedup explain`, the
    report): sql/fragments/shingle_texts.sql over `chosen_documents`, with its tokens
    (sql/fragments/tokens_<type>.sql), their windows, and a shingle's fingerprint and text."""
    if shingle_type not in SHINGLINGS:
        raise ValueError(f"no shingle fragment for {shingle_type!r}")
    return {
        "shingle_texts": fragment(
            "shingle_texts",
            "duckdb",
            tokens=sqltext.tokens(shingle_type, "chosen_documents"),
            shingle_windows=sqltext.shingle_windows(k),
            shingle_fingerprint=sqltext.shingle_fingerprint(k),
            shingle_text=sqltext.shingle_text(shingle_type, k),
        )
    }


def compile_stage(stage: Stage, sketch: Sketch, dialect: str) -> Statement:
    """The stage as it runs: its file with the generated column lists, and its parameters bound."""
    values, fragments = bindings(sketch, dialect)
    return bind(stage.name, dialect, fill(read_sql(stage.file, dialect).text, fragments), values)


def compile_stages(sketch: Sketch, dialect: str, between: bool = False) -> list[tuple[Stage, Statement]]:
    """Every stage of the run with its statement, in order; between: the pair stages make the rows
    between distinct texts alone (Plan.verify_texts)."""
    stages = pipeline_stages(sketch)
    values, fragments = bindings(sketch, dialect, between)
    return [(s, bind(s.name, dialect, fill(read_sql(s.file, dialect).text, fragments), values)) for s in stages]


# On DuckDB the stages whose memory would grow with the corpus run on batches, each batch in
# memory (dedup.runner), by the table a batch is cut from, as their `batch:` header says: the
# per-document stages (every shingle occurrence of a document listed and sorted, a 128-column
# GROUP BY over every document) on batches of consecutive doc_ids, the verification (a join over the shingles of every
# candidate's two documents) on batches of candidates by doc_id_a. Spark partitions the work itself.
# A batch of documents holds at most this many documents and about this many characters of
# normalized text (about as many shingle occurrences): ~1 GB of DuckDB memory at most. Word
# shingles start at every token, ~4 bytes or more with its separator: their batches hold
# bytes_per_shingle times the characters (dedup.choices.SHINGLINGS) for about as many shingle rows
# (the long workload, 39 MB in 6.0M word shingles: one batch, no staging copies or checkpoints between).
BATCH_DOCUMENTS = 100_000
BATCH_CHARACTERS = 16_000_000
# A batch of candidates joins about this many shingle rows of their documents.
BATCH_SHINGLES = 20_000_000

# Under --memory-limit, batches shrink with DuckDB's share of it: a batch costs up to ~64 bytes of
# DuckDB memory per character (or per shingle row of a candidate batch) on 2 threads, measured on
# 72k short lines (5.8M characters failed in 200 MB and passed in 400 MB). So a batch gets at most
# share / 128 of either (batches of the whole limit's size under DuckDB's share doubled the
# signatures stage at 1M documents, 74 s against 34 s), and never fewer than MIN_BATCH (a limit
# too small for that fails with DuckDB's out-of-memory error, which names the limit).
BYTES_PER_BATCH_ROW = 128
MIN_BATCH = 50_000


def batch_sizes(duckdb_bytes: int | None, bands: int, shingle_type: str = "char") -> dict[str, dict[str, int]]:
    """The bounds of the batches of each batched table (batch_ranges_<table>.sql); `bands` tells
    a likely pair of copies among the candidates (it collides in every band)."""
    characters, shingles = BATCH_CHARACTERS, BATCH_SHINGLES
    if duckdb_bytes is not None:
        rows = max(MIN_BATCH, duckdb_bytes // BYTES_PER_BATCH_ROW)
        characters, shingles = min(characters, rows), min(shingles, rows)
    return {
        "documents": {
            "characters": characters * SHINGLINGS[ShingleType(shingle_type)].bytes_per_shingle,
            "documents": BATCH_DOCUMENTS,
        },
        "candidates": {"shingles": shingles, "bands": bands},
    }


Step = tuple[Stage, Statement]


@dataclass(frozen=True)
class Derivation:
    """What a statement reads that a lean database does not keep: the per-document steps that make
    it, in order, and the pair table on whose documents they run (None: every document, or those
    the command chooses); needed: the tables of the steps that the statement reads (the others
    make them)."""

    steps: tuple[Step, ...]
    pairs_of: str | None
    needed: tuple[str, ...] = ()

    def without(self, made: Collection[str]) -> Derivation | None:
        """The steps still to run when the tables `made` exist already (what a run holds): none
        when it holds every table needed, else the steps up to the last one needed, but those made."""
        needed = [name for name in self.needed if name not in made]
        if not needed:
            return None
        names = [stage.name for stage, _ in self.steps]
        last = max(names.index(name) for name in needed)
        steps = tuple(step for step in self.steps[: last + 1] if step[0].name not in made)
        return Derivation(steps, self.pairs_of, tuple(needed))


@dataclass(frozen=True)
class Layout:
    """What a database keeps of the stage tables: every one (full: `--keep-all-tables`, a Spark
    work folder, a database made by an earlier dedup) or the lean layout, which keeps of each what
    its `lean:` header says (Stage.kept): the shingles, one row per distinct shingle of every
    document and the largest table by far, are not kept; of the signatures only each document's
    shingle count. What a statement reads that is not kept, the per-document steps below make
    again, on the documents it needs alone, as temporary tables of the connection, which DuckDB
    reads before the database's tables of the same names (dedup.runner.derived): the statement is
    the same on both layouts, and so are its rows, each document's made from its text alone."""

    lean: bool
    per_document: tuple[Step, ...] = ()
    between: bool = False  # the pair tables hold the pairs between groups of copies (Stage.between)

    def kept(self, stage: Stage) -> tuple[str, ...] | None:
        return stage.kept if self.lean else None

    def stored(self, stage: Stage) -> str:
        """The table that holds the stage's rows: its own name, or for a pair table stored between
        distinct texts `<name>_between`, a row for each pair of texts by their groups'
        representatives, beside a view of the stage's name that lists it for every member of the two
        groups and adds the pairs within each group (sql/queries/staging/between_view_<name>.sql):
        every reader reads the view, as it read the table; a group of n copies is n rows of
        `copies`, not n(n-1)/2 of each table, and two groups of n near-duplicates one row, not n^2."""
        return between_table(stage.name) if self.between and stage.between else stage.name

    def whole(self, stage: Stage) -> bool:
        """Whether the database keeps the stage's table as the stage makes it."""
        return self.kept(stage) is None and self.stored(stage) == stage.name

    def derivation(self, reads: str, made: Collection[str] = ()) -> Derivation | None:
        """What statements reading `reads` (a `reads:` header) need made again, but the tables
        in `made` (made already, beside them); None when they read only what the layout keeps."""
        if not self.lean:
            return None
        tables = declared_tables(reads)
        needed = [
            number
            for number, (stage, _) in enumerate(self.per_document)
            if stage.name in tables and stage.name not in made and not covers(stage.kept, tables[stage.name])
        ]
        if not needed:
            return None
        steps = self.per_document[: max(needed) + 1]
        pairs_of = next((table for table in tables if table in stage_names("pairs")), None)
        return Derivation(steps, pairs_of, tuple(self.per_document[number][0].name for number in needed))


def covers(kept: tuple[str, ...] | None, read: Sequence[str]) -> bool:
    """Whether the columns kept (None: all) hold the columns read (none listed: all of them)."""
    if kept is None:
        return True
    return bool(read) and all(column in kept for column in read)


FULL = Layout(lean=False)


def between_table(name: str) -> str:
    """The table that holds a pair stage's rows between groups of exact copies (Layout.stored)."""
    return f"{name}_between"


def not_kept() -> tuple[str, ...]:
    """The stage tables a lean database does not keep at all (their `lean: none` header)."""
    return tuple(dict.fromkeys(stage.name for stage in all_stages() if stage.kept == ()))


def lean_layout(steps: Sequence[Step], between: bool = True) -> Layout:
    """The lean layout of a run's compiled stages: what it does not keep is made by their steps;
    between: its pair tables hold the pairs between groups of copies (a lean index of a dedup before
    that holds every pair)."""
    per_document = tuple(step for step in steps if step[0].scope == "documents" and step[0].kept is not None)
    return Layout(True, per_document, between)


def layout_of(sketch: Sketch, lean: bool, dialect: str, between: bool = True) -> Layout:
    """The layout of an index of `sketch`'s stages (lean, between: dedup.runner.is_lean, stored_between)."""
    return lean_layout(compile_stages(sketch, dialect), between) if lean else FULL


@dataclass(frozen=True)
class Plan:
    """A run's statements, compiled from its settings for one dialect before any engine opens.

    groups: the stages in order, each with the statement that fingerprints and runs it; a group
    of several stages runs batch by batch. batched_on: per group, the table its batches are cut
    from (None: the group runs on whole tables). queries: the other statements the run executes,
    by name (`query(name, table)` for those made per table). after: the `reads:` headers of the
    queries the run executes once its stages end that may read what its layout does not keep
    (--audit's). distinct_texts: the groups batched on the documents read each distinct normalized
    text once, on its first document, and give its copies that document's rows (dedup.runner,
    text_copies.sql): a lean run on DuckDB with no query after its stages. It holds the shingles
    of those first documents alone, all that the verification reads (sql/06_verified.sql);
    --audit reads every document's, and a full database keeps them all, so those runs shingle
    every copy. verify_texts: the pair stages make the rows between distinct texts alone, by their
    groups' representatives, which the lean database stores and its views list for every member of
    the groups (a lean run on DuckDB): the candidates stage the pairs of representatives
    (sql/fragments/copies_between.sql), the groups batched on the candidates verify those
    (`candidates_between`), and the later pair stages read what is stored (reads_between), not the
    views. The verification of a pair of texts is that of every pair of their members, and the
    run's counts are the views' rows."""

    dialect: str
    options: Mapping[str, object]  # as recorded in the runs table
    layout: Layout
    groups: tuple[tuple[Step, ...], ...]
    batched_on: tuple[str | None, ...]
    queries: Mapping[str, Statement]
    after: tuple[str, ...] = ()
    distinct_texts: bool = False
    verify_texts: bool = False

    def query(self, name: str, table: str | None = None) -> Statement:
        return self.queries[name if table is None else f"{name} {table}"]

    def held(self, group: int) -> dict[str, tuple[str, ...] | None]:
        """What a lean run holds of the tables of group number `group` once they are made
        (dedup.runner._hold): each table that a later stage or a query after the stages reads
        beyond what the layout keeps, with the columns read (None: all of them): the shingles
        without h, which the signatures stage alone reads, in their batch (a third of their bytes
        held), and the signatures whole, whose MinHash values the pairs stage reads for its
        estimates."""
        return {
            stage.name: columns
            for stage, _ in self.groups[group]
            if self.layout.kept(stage) is not None and (columns := self.read_beyond_kept(stage, group + 1)) != ()
        }

    def between_tables(self) -> dict[str, str]:
        """The run's pair tables that the database stores between distinct texts, each with the
        table storing it (Layout.stored): every pair table of a run that makes the rows between
        texts alone (verify_texts), none otherwise."""
        stages = [stage for steps in self.groups for stage, _ in steps]
        return between_tables(self.layout, stages) if self.verify_texts else {}

    def reads_between(self, group: int) -> dict[str, str]:
        """The pair tables stored between distinct texts (between_tables) that the stages of group
        number `group` read, but the one its batches are cut from (whose batches read the stored
        table: compile_run), with the table storing each: a pair stage after the verification reads
        the rows stored between texts, not the views that list them for every member of two groups
        of copies (dedup.runner, sql/queries/staging/between_read.sql), and makes its rows between
        texts alone: those the database stores of them."""
        stored = self.between_tables()
        read = dict.fromkeys(table for stage, _ in self.groups[group] for table in stage.tables_read)
        return {table: stored[table] for table in read if table in stored and table != self.batched_on[group]}

    def read_beyond_kept(self, stage: Stage, first_group: int) -> tuple[str, ...] | None:
        """The columns of the stage's table that the stages from group `first_group` on and the
        queries after the stages read beyond what the layout keeps: () when they read nothing
        more, None when one of them reads every column."""
        reads = [step.tables_read for group in self.groups[first_group:] for step, _ in group]
        reads += [declared_tables(header) for header in self.after]
        kept = self.layout.kept(stage)
        columns: dict[str, None] = {}
        for tables in reads:
            read = tables.get(stage.name)
            if read is None or covers(kept, read):
                continue
            if not read or any("*" in column for column in read):  # `mh_*`: the MinHash values
                return None
            columns.update(dict.fromkeys(read))
        return tuple(columns)


def between_tables(layout: Layout, stages: Sequence[Stage]) -> dict[str, str]:
    """The stages' pair tables that `layout` stores between distinct texts, each with the table
    storing it (Layout.stored)."""
    return {stage.name: layout.stored(stage) for stage in stages if layout.stored(stage) != stage.name}


def first_documents_suffice(steps: Sequence[Step]) -> bool:
    """Whether the per-document tables that a lean run holds rather than keeps (the shingles, and
    with --max-shingle-df all_shingles) are read by later stages for the first document of each
    distinct text alone (Plan.distinct_texts): those that read the groups of exact copies too, as the
    verification does (its representatives, sql/06_verified.sql). The exact method's candidates
    (05_candidates_exact.sql: document frequencies) and the documents that --max-shingle-df took
    most from (02_mostly_boilerplate.sql) read every document's."""
    held = {stage.name for stage, _ in steps if stage.scope == "documents" and stage.kept == ()}
    return all(
        "copies" in stage.tables_read
        for stage, _ in steps
        if stage.batched_on != "documents" and held & set(stage.tables_read)
    )


def compile_run(
    sketch: Sketch,
    options: Mapping[str, object],
    memory_bytes: int | None,
    dialect: str,
    lean: bool = False,
    after: Sequence[str] = (),
) -> Plan:
    """The plan of a run on an engine of `dialect`: its stages compiled from `sketch`, batched to fit
    DuckDB's `memory_bytes`; `options` as the runs table records them (Settings.options); lean: the
    database keeps the lean layout (Layout); after: the queries the run executes once its stages
    end that may read what the layout does not keep (Plan.after)."""
    sizes = batch_sizes(memory_bytes, sketch.banding.bands, sketch.shingle_type)
    engine = engine_kind(dialect)
    batched = engine.batched
    verify_texts = lean and batched and any(stage.between for stage in pipeline_stages(sketch))
    steps = compile_stages(sketch, dialect, between=verify_texts)
    groups: list[list[Step]] = []
    batched_on: list[str | None] = []
    for stage, statement in steps:
        table = stage.batched_on if batched else None
        if table is not None and batched_on and batched_on[-1] == table:
            groups[-1].append((stage, statement))
        else:
            groups.append([(stage, statement)])
            batched_on.append(table)
    queries = {
        name: query(name, None, dialect)
        for name in (
            "skipped",
            "dropped_documents",
            "duplicate_ids",
            "export_pairs",
            "export_pairs_between_groups",
            "exact_copies",
        )
        + engine.queries
    }
    layout = lean_layout(steps) if lean else FULL
    stored = between_tables(layout, [stage for stage, _ in steps])
    for table in dict.fromkeys(t for t in batched_on if t is not None):
        fragments = {table: stored.get(table, table)}  # the candidates' batches: those between texts
        queries[f"batch_ranges {table}"] = query(f"batch_ranges_{table}", sizes[table], dialect, **fragments)
        queries[f"batch {table}"] = query(f"batch_{table}", {"first": None, "last": None}, dialect, **fragments)
    reads = tuple(read_sql(query_paths()[name], dialect).header.get("reads", "") for name in after)
    distinct = lean and batched and not after and first_documents_suffice(steps)
    if distinct and "documents" in batched_on:
        queries["batch documents"] = query("batch_distinct_texts", {"first": None, "last": None}, dialect)
    return Plan(
        dialect,
        options,
        layout,
        tuple(tuple(group) for group in groups),
        tuple(batched_on),
        queries,
        reads,
        distinct,
        verify_texts,
    )
