-- query:  between_append
-- reads:  {{ rows }}, {{ groups }}(doc_id, rep)   (sql/fragments/between_rows.sql)
-- writes: {{ database }}.main.{{ stored }}
-- params: (none)
-- Append a batch's rows between groups of exact copies to the table that stores them
-- (between_keep.sql).
insert into {{ database }}.main.{{ stored }} by name
{{ between_rows }}
