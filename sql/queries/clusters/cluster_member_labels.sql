-- query:  cluster_member_labels
-- reads:  cluster_members(doc_id, rep), cluster_labels(doc_id, label)
-- writes: cluster_member_labels(doc_id, label)
-- params: (none)
-- Each member's final label: its representative's (the smallest doc_id of its component, since
-- a representative is the smallest doc_id of its group).
select m.doc_id, l.label from cluster_members as m join cluster_labels as l on l.doc_id = m.rep
