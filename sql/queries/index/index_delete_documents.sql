-- query:  index_delete_documents
-- reads:  removed_doc_ids(doc_id)   (an Arrow table of the doc_ids to remove)
-- writes: {{ table }}
-- params: (none)
-- Remove the rows of the removed documents from one per-document table ({{ table }}: a quoted
-- name from dedup's own list).
delete from {{ table }} where doc_id in (select doc_id from removed_doc_ids)
