-- query:  cluster_labels (of the representatives)
-- reads:  cluster_members(rep)
-- writes: cluster_labels(doc_id, label)
-- params: (none)
-- Every representative starts in its own component, labelled by its own doc_id.
select distinct rep as doc_id, rep as label from cluster_members
