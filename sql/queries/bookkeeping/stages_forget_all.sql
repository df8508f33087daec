-- query:  stages_forget_all
-- writes: stages
-- params: (none)
-- Mark no stage finished: the stage tables were changed outside a run (dedup add, remove), so
-- the next run recomputes every stage.
delete from stages
