-- query:  between_append
-- reads:  temp.main.{{ table }}, {{ database }}.main.copies(doc_id, rep)
-- writes: {{ database }}.main.{{ stored }}
-- params: (none)
-- Append a batch's rows between groups of exact copies to the table that stores them
-- (between_keep.sql).
insert into {{ database }}.main.{{ stored }} by name
select p.*
from temp.main.{{ table }} as p
left join {{ database }}.main.copies as ca on ca.doc_id = p.doc_id_a
left join {{ database }}.main.copies as cb on cb.doc_id = p.doc_id_b
where ca.rep is null or cb.rep is null or ca.rep <> cb.rep
