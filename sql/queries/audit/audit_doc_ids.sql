-- query:  audit_doc_ids
-- reads:  documents(doc_id, id)
-- writes: (none: a SELECT for dedup audit)
-- params: (none)
-- Every document, in doc_id order: the population a sample is drawn from.
select doc_id, id from documents order by doc_id
