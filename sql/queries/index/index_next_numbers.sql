-- query:  index_next_numbers
-- reads:  documents(doc_id, position)
-- params: (none)
-- The first doc_id of added documents and the last position of the indexed ones.
select coalesce(max(doc_id), 0) + 1, coalesce(max(position), 0) from documents
