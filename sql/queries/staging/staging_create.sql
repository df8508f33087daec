-- query:  staging_create
-- writes: staging
-- params: (none)
-- The schema where dedup add runs the stages on the added documents alone.
create schema if not exists staging
