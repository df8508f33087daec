-- query:  staging_append
-- reads:  staging.{{ table }}
-- writes: main.{{ table }}
-- params: (none)
-- Append a staged table's rows to the main table of the same name ({{ table }}: a quoted name
-- from dedup's own list).
insert into main.{{ table }} by name select * from staging.{{ table }}
