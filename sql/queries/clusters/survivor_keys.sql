-- query:  survivor_keys
-- reads:  document_keys(position, key, key_low)
-- writes: survivor_keys(position, key, key_low)
-- params: (none)
-- The --keep-by keys the survivor rules order by (dedup.keep_by): each document's, by position.
select position, key, key_low from document_keys
