-- query:  between_read_drop
-- writes: temp.main.{{ table }}
-- params: (none)
-- Drop what between_read.sql made once the stage that read it has run ({{ table }}: a quoted name
-- from dedup's own list): the database's view of that name is read again by its plain name.
drop view temp.main.{{ table }}
