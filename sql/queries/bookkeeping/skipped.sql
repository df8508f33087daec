-- query:  skipped
-- reads:  raw_skipped(source, reason)   (an Arrow table registered by dedup.corpus)
-- writes: skipped(source, reason)
-- params: (none)
-- Every input that was skipped, with its reason; written with the documents stage.
select * from raw_skipped
