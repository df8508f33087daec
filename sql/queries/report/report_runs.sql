-- query:  report_runs
-- reads:  runs(run_id, started_at, finished_at, dedup_version, duckdb_version, hash_scheme, options, counts, stage_seconds)
-- writes: (none: a SELECT for `dedup report`)
-- params: (none)
-- Every run recorded in the database, oldest first (`dedup add` appends a row): versions, hash
-- scheme, options, input counts and seconds per stage, JSON as text.
select
    run_id,
    started_at::varchar as started_at,
    finished_at::varchar as finished_at,
    dedup_version,
    duckdb_version,
    hash_scheme,
    options::varchar as options,
    counts::varchar as counts,
    stage_seconds::varchar as stage_seconds
from runs
order by run_id
