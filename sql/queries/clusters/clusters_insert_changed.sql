-- query:  clusters_insert_changed
-- reads:  clusters_changed(doc_id, id, cluster_id, cluster_size, is_survivor, keep)
-- writes: clusters
-- params: (none)
-- Put the relabelled members back.
insert into clusters by name select * from clusters_changed
