-- query:  staging_leave
-- params: (none)
-- Back to main.
reset search_path
