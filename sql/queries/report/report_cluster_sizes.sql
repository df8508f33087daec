-- query:  report_cluster_sizes
-- reads:  clusters(cluster_id, cluster_size)
-- writes: (none: a SELECT for `dedup report`)
-- params: (none)
-- How many clusters there are of each size (size 1: documents without a duplicate).
select cluster_size as size, count(distinct cluster_id) as clusters
from clusters
group by cluster_size
order by cluster_size
