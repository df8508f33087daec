-- query:  index_delete_pairs
-- reads:  removed_doc_ids(doc_id)   (an Arrow table of the doc_ids to remove)
-- writes: {{ table }}
-- params: (none)
-- Remove every pair with a removed document from one pair table ({{ table }}: a quoted name
-- from dedup's own list).
delete from {{ table }}
where doc_id_a in (select doc_id from removed_doc_ids) or doc_id_b in (select doc_id from removed_doc_ids)
