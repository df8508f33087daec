-- query:  index_add_skipped
-- reads:  raw_skipped(source, reason)   (an Arrow table registered by dedup.corpus)
-- writes: skipped(source, reason)
-- params: (none)
-- The inputs that dedup add skipped, appended to those of the index.
insert into skipped select * from raw_skipped
