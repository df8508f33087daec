-- query:  runs_latest
-- reads:  runs(run_id, hash_scheme, options)
-- params: (none)
-- The hash scheme and options of the latest run: those of the index. A later `dedup run` on the
-- same database with other options rebuilds every table with them; `dedup add` keeps them.
select hash_scheme, options from runs order by run_id desc limit 1
