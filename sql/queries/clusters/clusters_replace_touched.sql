-- query:  clusters_replace_touched
-- reads:  cluster_touched(cluster_id)
-- writes: clusters
-- params: (none)
-- Remove the rows of the touched clusters (their members come back from clusters_changed).
delete from clusters where cluster_id in (select cluster_id from cluster_touched)
