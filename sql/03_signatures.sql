-- stage:  signatures
-- reads:  shingles(doc_id, h)
-- writes: signatures(doc_id, n_shingles, mh_0 .. mh_{num_perm-1})
-- params: $a_0 .. $a_{num_perm-1}, $b_0 .. $b_{num_perm-1}
-- counts: processed
-- scope:  documents
-- batch:  documents
-- lean:   doc_id, n_shingles  (the MinHash values recomputed where a statement reads them)
-- One row per document with shingles: for each permutation i, the minimum over its shingles
-- of (a_i * h + b_i) mod 2^32 (MMDS ch. 3.3.5), with a_i odd, so each map is a bijection of
-- the 32-bit values; h is already a uniform hash (hash scheme v4), so each permutation ranks shingles
-- uniformly at random. The mod is a bit mask: a*h + b < 2^64 fits an unsigned 64-bit
-- integer, and a mask costs about half of a division by a prime (benchmarks/permutations.py
-- measures both, with their estimate error and recall). The minima are columns of one
-- group by: ~3x faster than a cross join with a permutations table grouped by (doc, perm).
select
    doc_id,
    count(*) as n_shingles,
    {{ minhash_columns }}
from shingles
group by doc_id
