-- query:  retained_view
-- reads:  dedup_retained.main.{{ table }}
-- writes: temp.main.{{ table }}
-- params: (none)
-- What the run holds, read by its stage's name before the database's table of that name (a
-- temporary view, like a batch's temporary table): the later stages' statements are unchanged.
create or replace temp view {{ table }} as select * from dedup_retained.main.{{ table }}
