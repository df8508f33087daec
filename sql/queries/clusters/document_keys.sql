-- query:  document_keys
-- reads:  raw_documents(position, key)
-- writes: document_keys(position, key)
-- params: (none)
-- A run's --keep-by keys (dedup.keep_by), one per document read, by position: the index keeps them
-- for its survivor rules (survivor_keys.sql) and for dedup add and remove.
select position, key from raw_documents
