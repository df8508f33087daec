-- query:  export_pairs
-- reads:  pairs(id_a, id_b, jaccard, estimate)
-- params: (none)
-- The result of a run, and `dedup export --what pairs`: every pair above the threshold, its two ids
-- in id order. A stored pair is (smaller doc_id, larger doc_id) with their ids; a run numbers
-- documents in id order, but `dedup add` numbers added documents after the indexed ones, so a
-- pair of an added document may hold the larger id first: printed in id order, it reads as a
-- run on the union prints it.
select least(id_a, id_b) as id_a, greatest(id_a, id_b) as id_b, jaccard, estimate
from pairs
order by jaccard desc, 1, 2
