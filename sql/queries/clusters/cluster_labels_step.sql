-- query:  cluster_labels_next
-- reads:  cluster_labels(doc_id, label), cluster_edges(doc_id_a, doc_id_b)
-- writes: cluster_labels_next(doc_id, label, changed)
-- params: (none)
-- One round of min-label propagation with pointer jumping: a document takes the smallest of its
-- own label, its neighbours' labels and the label of the document its label names. Labels only
-- decrease, so rounds are repeated until none changes; the label is then the smallest doc_id of
-- the connected component. Jumping makes a path of length n converge in O(log n) rounds
-- instead of n (the "hook and shortcut" of Shiloach-Vishkin).
with neighbours as (
    select e.doc_id_a as doc_id, l.label from cluster_edges as e join cluster_labels as l on l.doc_id = e.doc_id_b
    union all
    select e.doc_id_b as doc_id, l.label from cluster_edges as e join cluster_labels as l on l.doc_id = e.doc_id_a
),
lowest as (
    select doc_id, min(label) as label from neighbours group by doc_id
),
proposed as (
    select
        l.doc_id,
        l.label as old_label,
        least(l.label, coalesce(n.label, l.label), j.label) as label
    from cluster_labels as l
    left join lowest as n on n.doc_id = l.doc_id
    join cluster_labels as j on j.doc_id = l.label
)
select doc_id, label, label <> old_label as changed from proposed
