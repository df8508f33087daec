-- query:  raw_sorted
-- reads:  raw_read(source, source_row, reason)   (dedup/engines/spark/read.py)
-- writes: raw_sorted(source, scan_row, reason, sorted_position)
-- params: (none)
-- dialect: spark (the DuckDB engine numbers inputs in Python while reading them).
-- The key of every input row (source: an input's rank, then the file's path; scan_row: the
-- row's monotonically_increasing_id() in the scan, which grows with its offset in a file) in
-- input order. Keys only: the texts are joined back by (source, scan_row) afterwards
-- (dedup/engines/spark/read.py), so the sort and the numbering move a few bytes per row, not the
-- corpus. A range-partitioned sort, so no task holds all rows; raw_numbered numbers them.
select source, source_row as scan_row, reason, monotonically_increasing_id() as sorted_position
from (select source, source_row, reason from raw_read order by source, source_row)
