-- query:  between_keep
-- reads:  {{ rows }}, {{ groups }}(doc_id, rep)   (sql/fragments/between_rows.sql)
-- writes: {{ database }}.main.{{ stored }}
-- params: (none)
-- A lean run's first batch of a pair table stored between groups of exact copies
-- (dedup.stages.Layout.stored): its rows but those of two members of one group, which the view of
-- the table's name lists from `copies` (between_view_<table>.sql). Later batches are appended
-- (between_append.sql). {{ stored }}, {{ database }}: quoted names from dedup's own list; the batch's
-- table and `copies` fill the fragment (dedup.runner).
create or replace table {{ database }}.main.{{ stored }} as
{{ between_rows }}
