-- query:  runs_forget_unfinished
-- writes: runs
-- params: (none)
-- Drop the row of a run that did not finish (runs_insert_unfinished), in the transaction that
-- records the run that finishes in its place: its tables are then all of that run.
delete from runs where finished_at is null
