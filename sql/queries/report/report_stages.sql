-- query:  report_stages
-- reads:  stages(stage, rows, finished_at)
-- writes: (none: a SELECT for `dedup report`)
-- params: (none)
-- The finished stages in the order they finished, with their row counts.
select stage, rows
from stages
order by finished_at, stage
