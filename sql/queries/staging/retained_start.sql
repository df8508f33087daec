-- query:  retained_start
-- reads:  temp.main.{{ table }}
-- writes: dedup_retained.main.{{ table }}
-- params: (none)
-- The first batch's rows of a table the run holds some columns of (retained_attach.sql); later
-- batches are appended (retained_append.sql); a table held whole is gathered once, from its
-- batches' tables (retained_gather.sql). {{ table }}: a quoted stage name from dedup's own list;
-- {{ columns }}: the quoted columns held (dedup.stages.Plan.held).
create or replace table dedup_retained.main.{{ table }} as select {{ columns }} from temp.main.{{ table }}
