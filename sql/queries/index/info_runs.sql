-- query:  info_runs
-- reads:  runs(run_id, started_at, finished_at, dedup_version, counts)
-- params: (none)
-- The runs and changes recorded in the database, oldest first (`dedup info`).
select
    run_id as run,
    strftime(started_at, '%Y-%m-%d %H:%M:%S') as started,
    finished_at is not null as finished,
    dedup_version as dedup,
    counts->>'$.read' as "read",
    counts->>'$.added' as added,
    counts->>'$.documents' as documents,
    counts->>'$.pairs' as pairs
from runs
order by run_id
