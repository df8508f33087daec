-- query:  work_kept
-- reads:  {{ table }}
-- writes: {{ stored }}   (Parquet under the work folder, by the engine)
-- params: (none)
-- A finished Spark run's stage table as a lean work folder keeps it (dedup.runner.keep_lean): the
-- columns {{ columns }} that a lean database keeps of it (the signatures' shingle counts), written
-- beside it and renamed over it. {{ table }}, {{ stored }}, {{ columns }}: names from dedup's own list.
select {{ columns }} from {{ table }}
