-- fragment: between_rows
-- reads:    {{ rows }}(doc_id_a, doc_id_b), {{ groups }}(doc_id, rep)
-- params:   (none)
-- What a lean database stores of a pair table (dedup.stages.Layout.stored): the rows of
-- {{ rows }} between two distinct texts, each pair of texts once, by the representatives of their
-- groups of exact copies ({{ groups }}: the copies table; a document in no group is its own). The
-- view of the table's name lists the rest from `copies`: a stored row stands for every pair of a
-- member of one group and a member of the other (they have the same shingles, signatures and
-- buckets, so the stages give those pairs the same values), and two members of one group are a
-- pair of their own. 794,406 Debian package summaries of 12 Packages indices (80,554 distinct
-- texts) stored 28.4M rows a table between groups, 145k between texts. {{ rows }} and
-- {{ groups }}: qualified names from dedup's own list (a batch's, a staged or a Spark work
-- folder's table).
select p.*
from {{ rows }} as p
left join {{ groups }} as ca on ca.doc_id = p.doc_id_a
left join {{ groups }} as cb on cb.doc_id = p.doc_id_b
where coalesce(ca.rep, p.doc_id_a) = p.doc_id_a and coalesce(cb.rep, p.doc_id_b) = p.doc_id_b
