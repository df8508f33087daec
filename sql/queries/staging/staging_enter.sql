-- query:  staging_enter
-- params: (none)
-- Tables are created in staging and read from staging first, then from main: a stage run on
-- the added documents reads the tables staged before it.
set search_path = 'staging,main'
