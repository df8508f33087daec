-- query:  runs_insert
-- reads:  runs(run_id)
-- writes: runs(run_id, started_at, finished_at, dedup_version, duckdb_version, hash_scheme, options, counts, stage_seconds)
-- params: $started, $dedup, $engine, $scheme, $options, $counts, $seconds
-- Record a finished run, numbered after the last one.
insert into runs
select coalesce(max(run_id), 0) + 1, $started, now(), $dedup, $engine, $scheme, $options, $counts, $seconds
from runs
