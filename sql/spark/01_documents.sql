-- stage:  documents
-- reads:  raw_documents(position, id, text)   (read by Spark's own readers, see dedup/engines/spark/read.py)
-- writes: document_order(position, sorted_position), documents(doc_id, id, position, text, norm)
-- params: $lower_from, $lower_to
-- dialect: spark. Why it differs from sql/01_documents.sql:
-- * lower(): Spark's lower() (ICU, and the JVM locale: under tr_TR 'I' becomes a dotless i) does
--   not agree with DuckDB's on U+0130, final sigma and ~55 letters newer than DuckDB's tables.
--   translate() with DuckDB's own 1,433 mappings (sql/spark/lowercase.tsv, bound as $lower_from
--   and $lower_to) gives DuckDB's lower() on every code point.
-- * doc_id: row_number() over (order by id) without a partition runs on one task in Spark. Here
--   the keys (id, position) are sorted by id (a range-partitioned sort, spread over all tasks),
--   each row takes its (partition, index in partition) from monotonically_increasing_id(), and
--   the second statement adds the row counts of the earlier partitions (a table of one row per
--   partition): the same 1-based position in id order as DuckDB's row_number(), as ids are
--   unique. Strings compare by their UTF-8 bytes in both engines. Only the keys are sorted; the
--   texts meet their doc_id by a join on position (unique among loaded documents), distributed
--   by position: the one shuffle of the texts, which spreads them over all tasks (an input file
--   of one Parquet row group is read by one task) and is the join's own partitioning when the
--   numbers are too large to broadcast.
-- The whitespace class is the one of sql/01_documents.sql (Java regex syntax accepts it as is);
-- trim() removes spaces only, as DuckDB's does.
-- table: document_order
select position, monotonically_increasing_id() as sorted_position
from (select id, position from raw_documents order by id)
-- table: documents
with partitions as (
    select shiftright(sorted_position, 33) as part, count(*) as n
    from document_order
    group by shiftright(sorted_position, 33)
),
offsets as (
    select part, sum(n) over (order by part rows between unbounded preceding and current row) - n as first_row
    from partitions
),
numbers as (
    select o.first_row + (d.sorted_position & 8589934591) + 1 as doc_id, d.position
    from document_order as d
    join offsets as o on o.part = shiftright(d.sorted_position, 33)
)
select
    n.doc_id,
    r.id,
    r.position,
    r.text,
    trim(regexp_replace(
        translate(r.text, $lower_from, $lower_to),
        r'[\t\n\x{0B}\f\r\x{1C}-\x{1F} \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]+',
        ' '
    )) as norm
from (select * from raw_documents distribute by position) as r
join numbers as n on n.position = r.position
