-- query:  staging_drop
-- writes: staging.{{ table }}
-- params: (none)
-- Drop a staged table once appended ({{ table }}: a quoted name from dedup's own list).
drop table staging.{{ table }}
