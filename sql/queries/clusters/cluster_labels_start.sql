-- query:  cluster_labels
-- reads:  documents(doc_id)
-- writes: cluster_labels(doc_id, label)
-- params: (none)
-- Every document starts in its own component, labelled by its own doc_id.
select doc_id, doc_id as label from documents
