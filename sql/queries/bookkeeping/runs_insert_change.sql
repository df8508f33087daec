-- query:  runs_insert_change
-- reads:  runs(run_id, options)
-- writes: runs(run_id, started_at, finished_at, dedup_version, duckdb_version, hash_scheme, options, counts, stage_seconds)
-- params: $dedup, $engine, $scheme, $counts, $seconds
-- Record a change of an index (dedup add) with the options of its latest run.
insert into runs
select max(run_id) + 1, now(), now(), $dedup, $engine, $scheme,
    (select options from runs order by run_id desc limit 1), $counts, $seconds
from runs
