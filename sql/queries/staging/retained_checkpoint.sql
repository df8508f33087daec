-- query:  retained_checkpoint
-- writes: dedup_retained
-- params: (none)
-- Compress what the run holds (retained_attach.sql) after each batch, outside its transaction.
checkpoint dedup_retained
