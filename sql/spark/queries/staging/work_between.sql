-- query:  work_between
-- reads:  {{ rows }}, {{ groups }}(doc_id, rep)   (sql/fragments/between_rows.sql)
-- writes: {{ stored }}   (Parquet under the work folder, by the engine)
-- params: (none)
-- A finished Spark run's pair table as a lean work folder keeps it (dedup.runner.keep_lean): its
-- rows between groups of exact copies, in `<table>_between`, as a lean DuckDB database stores them;
-- the pairs within a group are listed from `copies`. {{ stored }}: a name from dedup's own list.
{{ between_rows }}
