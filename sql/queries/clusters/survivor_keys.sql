-- query:  survivor_keys
-- reads:  document_keys(position, key)
-- writes: survivor_keys(position, key)
-- params: (none)
-- The --keep-by keys the survivor rules order by (dedup.keep_by): each document's, by position.
select position, key from document_keys
