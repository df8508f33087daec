-- query:  raw_sorted
-- reads:  raw_read(source, source_row, id, id_prefix, text, content, whole_file, reason)   (dedup/spark_inputs.py)
-- writes: raw_sorted(source, id, id_prefix, text, content, whole_file, reason, sorted_position)
-- params: (none)
-- dialect: spark (the DuckDB engine numbers inputs in Python while reading them).
-- Every input row in input order: by source (an input's rank, then the file's path) and the
-- row's place in its file (monotonically_increasing_id() of the scan grows with the offset in a
-- file). A range-partitioned sort, so no task holds all rows; raw_documents numbers them.
select source, id, id_prefix, text, content, whole_file, reason, monotonically_increasing_id() as sorted_position
from (select * from raw_read order by source, source_row)
