-- query:  batch_distinct_texts
-- reads:  main.documents(doc_id, norm), text_copies(doc_id)
-- params: $first, $last
-- One batch of a lean run's documents, as the temporary table documents (batch_documents.sql):
-- those whose normalized text no earlier document has (text_copies.sql). The per-document stages
-- then shingle and sign each distinct text once; its copies get its rows (copies_complete.sql),
-- which this batch holds, since a text's first document is its smallest doc_id.
select d.doc_id, d.norm
from main.documents as d
anti join text_copies as c on c.doc_id = d.doc_id
where d.doc_id between $first and $last
