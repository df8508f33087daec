-- query:  runs_first
-- reads:  runs(run_id, hash_scheme, options)
-- params: (none)
-- The hash scheme and options of the first run: those of the index.
select hash_scheme, options from runs order by run_id limit 1
