-- query:  between_read
-- reads:  {{ database }}.main.{{ stored }}
-- writes: temp.main.{{ table }}
-- params: (none)
-- What a lean run's stage reads of an earlier pair table that the database stores between distinct
-- texts (dedup.stages.Plan.reads_between): the stored rows alone, a row for each pair of texts by
-- their groups' representatives, under the table's name, which DuckDB reads before the database's
-- view of that name (the view lists each row for every member of the two groups). The stage's own
-- rows are then those between texts, what the database stores of them: the pairs stage of 794,406
-- Debian package summaries (80,554 distinct texts) read 5,369 rows instead of 12.6M.
-- {{ table }}, {{ stored }}, {{ database }}: quoted names from dedup's own list.
create or replace temp view {{ table }} as
select * from {{ database }}.main.{{ stored }}
