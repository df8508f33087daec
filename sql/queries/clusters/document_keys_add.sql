-- query:  document_keys_add
-- reads:  raw_documents(position, key)
-- writes: document_keys(position, key)
-- params: $positions
-- dedup add: the added documents' --keep-by keys, at the positions they are given after the
-- indexed documents (sql/queries/staging/staging_renumber.sql).
insert into document_keys select position + $positions, key from raw_documents
