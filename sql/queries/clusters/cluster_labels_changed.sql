-- query:  cluster_labels_changed
-- reads:  cluster_labels_next(changed)
-- params: (none)
-- How many documents changed label in the last round (0: the labels are final).
select count(*) from cluster_labels_next where changed
