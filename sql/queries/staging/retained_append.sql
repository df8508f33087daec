-- query:  retained_append
-- reads:  temp.main.{{ table }}
-- writes: dedup_retained.main.{{ table }}
-- params: (none)
-- A later batch's rows of a table the run holds (retained_start.sql).
insert into dedup_retained.main.{{ table }} by name select {{ columns }} from temp.main.{{ table }}
