-- query:  document_keys
-- reads:  raw_documents(position, key, key_low)
-- writes: document_keys(position, key, key_low)
-- params: (none)
-- A run's --keep-by keys (dedup.keep_by), one per document read, by position: the index keeps them
-- for its survivor rules (survivor_keys.sql) and for dedup add and remove. key_low: the low bits
-- of an integer past 2^53, whose key holds the rest (dedup.keep_by.split_keys): 0 for the others.
select position, key, key_low from raw_documents
