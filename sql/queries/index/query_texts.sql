-- query:  query_texts
-- reads:  documents(doc_id, text), wanted_doc_ids(doc_id)   (an Arrow table of the candidates)
-- params: (none)
-- The texts of the candidates of a query, to shingle them beside it.
select doc_id, text from documents where doc_id in (select doc_id from wanted_doc_ids) order by doc_id
