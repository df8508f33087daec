-- fragment: copy_shared_bands_exact
-- reads:    s(n_shingles)   (the document's signatures row)
-- params:   $threshold
-- The shared_bands of two exact copies under --method exact (sql/05_candidates_exact.sql): the
-- shared prefix shingles of two equal sets, ranked alike, are the first index_length of them
-- (the smaller set's index prefix, never longer than the other's probe prefix), as a count.
cast(s.n_shingles - ceil(2 * $threshold / (1 + $threshold) * s.n_shingles - 1e-9) + 1 as bigint)
