-- query:  batch_append
-- reads:  temp.main.{{ table }}
-- writes: {{ database }}.main.{{ table }}
-- params: (none)
-- Append a batch's rows (the connection's temporary table, dedup/runner.py) to the database's
-- table of the same name ({{ table }}, {{ database }}: quoted names, see batch_keep.sql; {{ columns }}: `*`
-- or the quoted columns the database's layout keeps, dedup.stages.Layout).
insert into {{ database }}.main.{{ table }} by name select {{ columns }} from temp.main.{{ table }}
