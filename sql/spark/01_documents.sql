-- stage:  documents
-- reads:  raw_documents(position, id, text)   (read by Spark's own readers, see dedup/engine/spark.py)
-- writes: documents_sorted(id, position, text, norm, sorted_position), documents(doc_id, id, position, text, norm)
-- params: $lower_from, $lower_to
-- dialect: spark. Why it differs from sql/01_documents.sql:
-- * lower(): Spark's lower() (ICU, and the JVM locale: under tr_TR 'I' becomes a dotless i) does
--   not agree with DuckDB's on U+0130, final sigma and ~55 letters newer than DuckDB's tables.
--   translate() with DuckDB's own 1,433 mappings (sql/spark/lowercase.tsv, bound as $lower_from
--   and $lower_to) gives DuckDB's lower() on every code point.
-- * doc_id: row_number() over (order by id) without a partition runs on one task in Spark. Here
--   the rows are sorted by id (a range-partitioned sort, spread over all tasks), each row takes
--   its (partition, index in partition) from monotonically_increasing_id(), and the second
--   statement adds the row counts of the earlier partitions (a table of one row per partition):
--   the same 1-based position in id order as DuckDB's row_number(), as ids are unique.
--   Strings compare by their UTF-8 bytes in both engines.
-- The whitespace class is the one of sql/01_documents.sql (Java regex syntax accepts it as is);
-- trim() removes spaces only, as DuckDB's does.
-- table: documents_sorted
select
    id,
    position,
    text,
    trim(regexp_replace(
        translate(text, $lower_from, $lower_to),
        r'[\t\n\x{0B}\f\r\x{1C}-\x{1F} \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]+',
        ' '
    )) as norm,
    monotonically_increasing_id() as sorted_position
from (select id, position, text from raw_documents order by id)
-- table: documents
with partitions as (
    select shiftright(sorted_position, 33) as part, count(*) as n
    from documents_sorted
    group by shiftright(sorted_position, 33)
),
offsets as (
    select part, sum(n) over (order by part rows between unbounded preceding and current row) - n as first_row
    from partitions
)
select
    o.first_row + (d.sorted_position & 8589934591) + 1 as doc_id,
    d.id,
    d.position,
    d.text,
    d.norm
from documents_sorted as d
join offsets as o on o.part = shiftright(d.sorted_position, 33)
