-- query:  staging_append
-- reads:  staging.{{ table }}
-- writes: main.{{ table }}
-- params: (none)
-- Append a staged table's rows to the main table of the same name ({{ table }}: a quoted name
-- from dedup's own list; {{ columns }}: `*`, or the quoted columns the index's layout keeps).
insert into main.{{ table }} by name select {{ columns }} from staging.{{ table }}
