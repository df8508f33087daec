-- query:  between_keep
-- reads:  temp.main.{{ table }}, {{ database }}.main.copies(doc_id, rep)
-- writes: {{ database }}.main.{{ stored }}
-- params: (none)
-- A lean run's first batch of a pair table stored between groups of exact copies
-- (dedup.stages.Layout.stored): its rows but those of two members of one group, which the view of
-- the table's name lists from `copies` (between_view_<table>.sql). Later batches are appended
-- (between_append.sql). {{ table }}, {{ stored }}, {{ database }}: quoted names from dedup's own list.
create or replace table {{ database }}.main.{{ stored }} as
select p.*
from temp.main.{{ table }} as p
left join {{ database }}.main.copies as ca on ca.doc_id = p.doc_id_a
left join {{ database }}.main.copies as cb on cb.doc_id = p.doc_id_b
where ca.rep is null or cb.rep is null or ca.rep <> cb.rep
