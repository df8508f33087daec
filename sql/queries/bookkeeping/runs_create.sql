-- query:  runs_create
-- writes: runs(run_id, started_at, finished_at, dedup_version, duckdb_version, hash_scheme, options, counts, stage_seconds)
-- params: (none)
-- One row per run, or per change of an index (dedup add); the first row's options are the
-- index's own. duckdb_version holds the version of the engine that ran it.
create table if not exists runs (
    run_id integer, started_at timestamptz, finished_at timestamptz, dedup_version varchar,
    duckdb_version varchar, hash_scheme varchar, options json, counts json, stage_seconds json
)
