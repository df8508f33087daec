-- query:  export_pairs
-- reads:  pairs(id_a, id_b, jaccard, estimate)
-- params: (none)
-- The result of a run, and `dedup export --what pairs`: every pair above the threshold.
select id_a, id_b, jaccard, estimate from pairs order by jaccard desc, id_a, id_b
