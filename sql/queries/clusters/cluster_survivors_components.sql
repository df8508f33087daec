-- query:  cluster_survivors (components)
-- reads:  cluster_members(doc_id, rep), cluster_labels(doc_id, label), documents(doc_id, id, position, text),
--         pairs(doc_id_a, doc_id_b, jaccard), survivor_keys(position, key, key_low)
-- writes: cluster_survivors(doc_id, survivor_doc_id, jaccard)
-- params: $keep
-- The components rule (--resolve components): one document kept per connected component, the first
-- in the order of the verified rule (sql/fragments/keep_order.sql: the --keep-by key, the --keep
-- rule, ties by input position); every other member is
-- dropped for it, with their exact Jaccard when they are a verified pair and null when they are
-- not (joined only through a chain of pairs: a removal no pair justifies).
with ranked as (
    select
        m.doc_id,
        first_value(m.doc_id) over (partition by l.label order by
{{ keep_order }}
            rows between unbounded preceding and unbounded following
        ) as survivor_doc_id
    from cluster_members as m
    join cluster_labels as l on l.doc_id = m.rep
    join documents as d on d.doc_id = m.doc_id
    left join survivor_keys as k on k.position = d.position
)
select r.doc_id, r.survivor_doc_id, p.jaccard
from ranked as r
left join pairs as p
    on p.doc_id_a = least(r.doc_id, r.survivor_doc_id) and p.doc_id_b = greatest(r.doc_id, r.survivor_doc_id)
