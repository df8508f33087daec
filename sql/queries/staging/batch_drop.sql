-- query:  batch_drop
-- writes: temp.main.{{ table }}
-- params: (none)
-- Drop a batch's temporary table once appended ({{ table }}: a quoted name from dedup's own list):
-- the database's table of that name is read again by its plain name.
drop table temp.main.{{ table }}
