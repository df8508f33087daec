-- query:  staging_keep
-- reads:  staging.{{ table }}
-- writes: main.{{ table }}
-- params: (none)
-- The first batch of a stage run in batches becomes the main table ({{ table }}: a quoted name
-- from dedup's own list); later batches are appended (staging_append.sql).
create or replace table main.{{ table }} as select * from staging.{{ table }}
