-- fragment: between_rows
-- reads:    {{ rows }}(doc_id_a, doc_id_b), {{ groups }}(doc_id, rep)
-- params:   (none)
-- What a lean database stores of a pair table (dedup.stages.Layout.stored): the rows of
-- {{ rows }} but those of two members of one group of exact copies ({{ groups }}: the copies
-- table), which the view of the table's name lists from `copies`. {{ rows }} and {{ groups }}:
-- qualified names from dedup's own list (a batch's, a staged or a Spark work folder's table).
select p.*
from {{ rows }} as p
left join {{ groups }} as ca on ca.doc_id = p.doc_id_a
left join {{ groups }} as cb on cb.doc_id = p.doc_id_b
where ca.rep is null or cb.rep is null or ca.rep <> cb.rep
