-- query:  retained_attach
-- writes: dedup_retained
-- params: (none)
-- A lean run holds what its database does not keep (the shingles and the MinHash values:
-- dedup.stages.Layout) until it ends, read by its verification, its pairs and --audit rather than
-- made again (dedup/runner.py): in an in-memory database of its connection, compressed at each
-- batch's checkpoint (retained_checkpoint.sql), so that what spills to --temp-dir is too.
-- Uncompressed temporary tables spilled 5.2 GB for 1M documents of 200 characters under
-- --memory-limit 2GB; the 20M-row test of a shingles table took 244 MiB compressed, 448 MiB not.
attach if not exists ':memory:' as dedup_retained (compress)
