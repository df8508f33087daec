-- query:  clusters
-- reads:  cluster_members(doc_id, rep), cluster_labels(doc_id, label),
--         cluster_survivors(doc_id, survivor_doc_id, jaccard), documents(doc_id, id)
-- writes: clusters(doc_id, id, cluster_id, cluster_size, is_survivor, survivor_doc_id, survivor, jaccard, keep,
--         resolve, keep_by)
-- params: $keep, $resolve, $keep_by
-- One row per member: its connected component (cluster_id = smallest doc_id in it, its
-- representative's label: a representative is the smallest doc_id of its group; cluster_size
-- its size), whether it is kept, and the document kept in its place (survivor_doc_id, survivor: its
-- own for a kept document) with their exact Jaccard (jaccard: null for a kept document, and under
-- the components rule for a member that is no verified pair of its survivor). The survivors are
-- those of cluster_survivors, made by the rule $resolve (verified: survivor_ranks.sql and the
-- rounds after it; components: cluster_survivors_components.sql) and the order $keep; a document
-- with no row there is kept. `keep`, `resolve` and `keep_by` (the --keep-by column, null when none)
-- record the rule, so that dedup add and remove decide again only the clusters they change, by it.
with members as (
    select
        d.doc_id,
        d.id,
        l.label as cluster_id,
        count(*) over (partition by l.label) as cluster_size,
        coalesce(s.survivor_doc_id, d.doc_id) as survivor_doc_id,
        s.jaccard
    from cluster_members as m
    join documents as d on d.doc_id = m.doc_id
    join cluster_labels as l on l.doc_id = m.rep
    left join cluster_survivors as s on s.doc_id = d.doc_id
)
select
    m.doc_id,
    m.id,
    m.cluster_id,
    m.cluster_size,
    m.survivor_doc_id = m.doc_id as is_survivor,
    m.survivor_doc_id,
    k.id as survivor,
    m.jaccard,
    $keep as keep,
    $resolve as resolve,
    cast($keep_by as string) as keep_by
from members as m
join documents as k on k.doc_id = m.survivor_doc_id
order by m.doc_id
