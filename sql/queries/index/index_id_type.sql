-- query:  index_id_type
-- reads:  documents(id)
-- params: (none)
-- The type of the index's ids (BIGINT or VARCHAR): added documents must have the same.
select typeof(id) from documents limit 1
