-- query:  staging_renumber
-- writes: staging.documents(doc_id, position)
-- params: $offset, $positions
-- Number the added documents after the indexed ones.
update staging.documents set doc_id = doc_id + $offset, position = position + $positions
