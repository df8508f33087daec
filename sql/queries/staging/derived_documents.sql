-- query:  derived_documents
-- reads:  main.documents(doc_id, ...), derived_doc_ids(doc_id)
-- params: (none)
-- The documents chosen (derived_doc_ids), as the temporary table documents that the stage
-- statements then read instead of main.documents (dedup/derived.py); run before it exists.
select d.* from main.documents as d semi join derived_doc_ids as c on c.doc_id = d.doc_id
