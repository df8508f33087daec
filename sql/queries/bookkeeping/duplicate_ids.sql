-- query:  duplicate_ids
-- reads:  raw_documents(position, id)
-- params: (none)
-- The id whose second occurrence comes first in input order, if any id occurs twice: the one
-- Python's reading names when it holds every id. Run on Spark when an input table gives the ids
-- (paths and line or row numbers are unique by construction), and on DuckDB when a large input
-- was written out as it was read (dedup.corpus.spool); every later stage takes the ids to be unique.
with occurrences as (
    select id, position, row_number() over (partition by id order by position) as occurrence
    from raw_documents
)
select id
from occurrences
where occurrence = 2
order by position
limit 1
