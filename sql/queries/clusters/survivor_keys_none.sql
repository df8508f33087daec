-- query:  survivor_keys_none
-- reads:  documents(position)
-- writes: survivor_keys(position, key, key_low)
-- params: (none)
-- No --keep-by: no keys, so the survivor rules order by --keep alone.
select position, cast(null as double) as key, cast(null as bigint) as key_low from documents where false
