-- query:  stages_forget
-- writes: stages
-- params: $stage
-- Mark one stage unfinished (before it is recorded again).
delete from stages where stage = $stage
