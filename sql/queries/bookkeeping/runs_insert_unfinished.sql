-- query:  runs_insert_unfinished
-- reads:  runs(run_id)
-- writes: runs(run_id, started_at, finished_at, dedup_version, duckdb_version, hash_scheme, options, counts, stage_seconds)
-- params: $started, $dedup, $engine, $scheme, $options
-- Record a run that is about to rewrite the first of its stage tables, in that stage's
-- transaction: a row without finished_at, replaced by the run's finished row when it finishes
-- (runs_forget_unfinished). A run that stops before (Ctrl-C, kill -9, a full disk) keeps its
-- finished stages for a resume, but the tables then mix two runs (say shingles of -k 5 and band
-- hashes of -k 9): this row makes the index commands refuse them until a run finishes.
insert into runs
select coalesce(max(run_id), 0) + 1, $started, null, $dedup, $engine, $scheme, $options, null, null
from runs
