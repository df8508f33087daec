-- fragment: copy_shared_bands_signature
-- reads:    (none)
-- params:   $num_perm
-- The shared_bands of two exact copies under --method signature (sql/05_candidates_signature.sql):
-- every one of their signature values is equal, summed as integers.
cast($num_perm as integer)
