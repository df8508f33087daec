-- query:  retained_gather
-- reads:  temp.main.{{ table }}   (the tables of its batches, retained_rename.sql)
-- writes: dedup_retained.main.{{ table }}
-- params: (none)
-- A table the run holds whole, its batches' tables (retained_rename.sql) gathered into the run's
-- compressed database (retained_attach.sql) once its group's last batch is done: {{ batches }} is a
-- UNION ALL of them (quoted names from dedup's own list, dedup.runner._gather). Held as the
-- batches' tables, 1M documents' signatures took 6 % more of the run's peak memory: each
-- column of a batch fills part of its last block.
create or replace table dedup_retained.main.{{ table }} as {{ batches }}
