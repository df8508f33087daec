-- query:  report_totals
-- reads:  documents, candidates, verified, pairs, clusters(cluster_id, cluster_size, is_survivor)
-- writes: (none: a SELECT for `dedup report`)
-- params: (none)
-- The sizes of the run's results: documents, candidates, verified candidates, pairs, clusters
-- of two documents or more, the documents in them, and the documents a --keep rule drops.
select
    (select count(*) from documents) as documents,
    (select count(*) from candidates) as candidates,
    (select count(*) from verified) as verified,
    (select count(*) from pairs) as pairs,
    (select count(distinct cluster_id) from clusters where cluster_size > 1) as clusters,
    (select count(*) from clusters where cluster_size > 1) as clustered_documents,
    (select count(*) from clusters where not is_survivor) as dropped
