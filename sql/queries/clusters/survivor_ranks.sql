-- query:  survivor_ranks
-- reads:  cluster_members(doc_id, rep), cluster_edges(doc_id_a, doc_id_b), documents(doc_id, id, position, text),
--         survivor_keys(position, key, key_low)
-- writes: survivor_ranks(doc_id, rep, rank)
-- params: $keep
-- The members in some pair (a group of two or more copies, or a group with an edge to another),
-- numbered in the order the rules walk them (sql/fragments/keep_order.sql: the --keep-by key,
-- then $keep, ties by input position). A member in no pair is kept for itself and needs no rank.
with paired as (
    select doc_id_a as rep from cluster_edges
    union
    select doc_id_b as rep from cluster_edges
    union
    select rep from cluster_members group by rep having count(*) > 1
)
select
    m.doc_id,
    m.rep,
    row_number() over (order by
{{ keep_order }}
    ) as rank
from cluster_members as m
join documents as d on d.doc_id = m.doc_id
left join survivor_keys as k on k.position = d.position
semi join paired as p on p.rep = m.rep
