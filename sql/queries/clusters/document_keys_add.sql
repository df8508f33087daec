-- query:  document_keys_add
-- reads:  raw_documents(position, key, key_low)
-- writes: document_keys(position, key, key_low)
-- params: $positions
-- dedup add: the added documents' --keep-by keys, at the positions they are given after the
-- indexed documents (sql/queries/staging/staging_renumber.sql).
insert into document_keys by name
select position + $positions as position, key, key_low from raw_documents
