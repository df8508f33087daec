-- query:  spark_duplicate_ids
-- reads:  raw_documents(position, id)
-- params: (none)
-- dialect: spark only (the DuckDB engine checks the ids as Python reads them).
-- The id whose second occurrence comes first in input order, if any id occurs twice: the one the
-- DuckDB engine names. Run only when an input table gives the ids (paths and line or row numbers
-- are unique by construction); every later stage takes the ids to be unique.
with occurrences as (
    select id, position, row_number() over (partition by id order by position) as occurrence
    from raw_documents
)
select id
from occurrences
where occurrence = 2
order by position
limit 1
