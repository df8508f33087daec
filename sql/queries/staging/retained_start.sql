-- query:  retained_start
-- reads:  temp.main.{{ table }}
-- writes: dedup_retained.main.{{ table }}
-- params: (none)
-- The first batch's rows of a table the run holds (retained_attach.sql); later
-- batches are appended (retained_append.sql). {{ table }}: a quoted stage name from dedup's own list;
-- {{ columns }}: the quoted columns held (dedup.stages.Plan.held), or `*`.
create or replace table dedup_retained.main.{{ table }} as select {{ columns }} from temp.main.{{ table }}
