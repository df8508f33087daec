-- fragment: copy_shared_bands_lsh
-- reads:    (none)
-- params:   $bands
-- The shared_bands of two exact copies under --method lsh (sql/05_candidates.sql): they collide
-- in every band.
cast($bands as bigint)
