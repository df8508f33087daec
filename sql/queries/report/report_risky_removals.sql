-- query:  report_risky_removals
-- reads:  clusters(doc_id, id, is_survivor, survivor, jaccard, cluster_size)
-- writes: (none: a SELECT for `dedup report`)
-- params: $top
-- The $top riskiest removals: the dropped documents least similar to the document kept in their
-- place (under the components rule, those that are no pair of it come first: nothing verified
-- justifies them); ties by doc_id.
select id, survivor, jaccard, cluster_size
from clusters
where not is_survivor
order by jaccard nulls first, doc_id
limit $top
