-- query:  raw_numbered
-- reads:  raw_sorted(source, scan_row, reason, sorted_position)
-- writes: raw_numbered(source, scan_row, source_row, position)
-- params: (none)
-- dialect: spark (the DuckDB engine numbers inputs in Python while reading them).
-- source_row: the 1-based row of a row (line, table row) in its input (the first 7 characters
-- of source, "NNNNNN:": a Parquet dataset's files are one table, numbered on in path order), the
-- id of lines and of tables without an id column; position: the 1-based rank of a loaded document (reason is NULL)
-- in input order, as the DuckDB engine's reader counts them. Both from the row's index in its
-- partition plus the counts of the earlier partitions (one row per partition): the scalable
-- form of row_number() over (order by ...), which would put every row on one task. Keys only
-- (see raw_sorted): dedup/engines/spark/read.py joins the rows back by (source, scan_row).
with parts as (
    select *, shiftright(sorted_position, 33) as part, sorted_position & 8589934591 as index_in_part
    from raw_sorted
),
counts as (
    select part, count(*) as n, count_if(reason is null) as loaded
    from parts
    group by part
),
offsets as (
    select
        part,
        sum(n) over (order by part rows between unbounded preceding and current row) - n as first_row,
        sum(loaded) over (order by part rows between unbounded preceding and current row) - loaded as first_loaded
    from counts
),
ranked as (
    select
        p.source,
        p.scan_row,
        o.first_row + p.index_in_part + 1 as row_number,
        o.first_loaded + sum(if(p.reason is null, 1, 0)) over (
            partition by p.part order by p.index_in_part rows between unbounded preceding and current row
        ) as position
    from parts as p
    join offsets as o on o.part = p.part
),
inputs as (
    select left(source, 7) as input, min(row_number) - 1 as rows_before
    from ranked
    group by left(source, 7)
)
select r.source, r.scan_row, r.row_number - i.rows_before as source_row, r.position
from ranked as r
join inputs as i on i.input = left(r.source, 7)
