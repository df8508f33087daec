-- query:  explain_survivor
-- reads:  clusters(doc_id, is_survivor, survivor, jaccard, cluster_size, keep, resolve)
-- params: $doc_id
-- dedup explain DB ID: whether the document is kept and, if not, the document kept in its place
-- with their exact Jaccard, its cluster's size and the rule that decided.
select is_survivor, survivor, jaccard, cluster_size, keep, resolve from clusters where doc_id = $doc_id
