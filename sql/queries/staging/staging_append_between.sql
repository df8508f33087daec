-- query:  staging_append_between
-- reads:  {{ rows }}, {{ groups }}(doc_id, rep)   (sql/fragments/between_rows.sql)
-- writes: main.{{ stored }}
-- params: (none)
-- `dedup add`: append a staged pair table's rows between groups of exact copies to the table that
-- stores them (between_keep.sql), the added documents' groups already in `copies` (add_copies.sql).
insert into main.{{ stored }} by name
{{ between_rows }}
