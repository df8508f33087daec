-- query:  document_list
-- reads:  documents(doc_id, id, position), signatures(doc_id, n_shingles), pairs(doc_id_a, doc_id_b)
-- params: (none)
-- dedup list: every document with its shingle count and how many documents are similar to it.
with ends as (
    select doc_id_a as doc_id from pairs union all select doc_id_b from pairs
),
neighbours as (select doc_id, count(*) as n from ends group by doc_id)
select d.id, coalesce(s.n_shingles, 0) as shingles, coalesce(m.n, 0) as similar_documents
from documents as d
left join signatures as s on s.doc_id = d.doc_id
left join neighbours as m on m.doc_id = d.doc_id
order by d.position
