-- query:  table_rows
-- reads:  {{ table }}
-- params: (none)
-- The number of rows of one table ({{ table }} is a quoted name from dedup's own list).
select count(*) from {{ table }}
