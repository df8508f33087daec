-- query:  runs_unfinished
-- reads:  runs(run_id, started_at, finished_at)
-- params: (none)
-- The start of the latest run when it did not finish (no row otherwise): its stage tables may
-- mix two runs' options and inputs.
select started_at::varchar from runs where finished_at is null order by run_id desc limit 1
