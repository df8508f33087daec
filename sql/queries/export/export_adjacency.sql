-- query:  export_adjacency
-- reads:  pairs(doc_id_a, doc_id_b, id_a, id_b), documents(doc_id, id, position)
-- params: (none)
-- dedup export --what adjacency: every document with the ids of the documents similar to it (akin's adjacency_list).
with edges as (
    select doc_id_a as doc_id, id_b as other from pairs
    union all
    select doc_id_b as doc_id, id_a as other from pairs
)
select d.id, coalesce(list(e.other order by e.other) filter (where e.other is not null), []) as similar
from documents as d
left join edges as e on e.doc_id = d.doc_id
group by d.id, d.position
order by d.position
