-- query:  batch_keep
-- reads:  temp.main.{{ table }}
-- writes: {{ database }}.main.{{ table }}
-- params: (none)
-- A run's first batch of a stage becomes the database's table ({{ table }}: a quoted name from
-- dedup's own list; {{ database }}: the database's quoted name, since `main.{{ table }}` would
-- name the temporary table while it exists). Later batches are appended (batch_append.sql).
-- {{ columns }}: `*`, or the quoted columns the database's layout keeps (dedup.stages.Layout).
create or replace table {{ database }}.main.{{ table }} as select {{ columns }} from temp.main.{{ table }}
