-- fragment: tokens (character shingles: a token is a code point)
-- reads:    {{ documents }}(doc_id, norm)
-- writes:   (doc_id, fps): one row per non-empty document, its code points' fingerprints as an array
-- params:   (none)
-- dialect:  spark. The same fingerprints as sql/fragments/tokens_char.sql (hash scheme v4: the
-- first output of SplitMix64 seeded with the code point), as signed bigints: split(norm, '') gives
-- the code points (astral characters whole), ascii() the number of each, and the arithmetic wraps
-- like DuckDB's masked unsigned one because the stage turns ANSI mode off (sql/spark/02_shingles.sql).
-- The constants are DuckDB's read as signed 64-bit values. The document is not padded: the stage
-- folds a document of at most k tokens into its one shingle.
with split as (
    select doc_id, split(norm, '') as chars
    from {{ documents }}
    where norm <> ''
)
select
    doc_id,
    transform(transform(transform(transform(transform(transform(
        chars, c -> cast(ascii(c) as bigint) + -7046029254386353131L),
        z -> z ^ shiftrightunsigned(z, 30)),
        z -> z * -4658895280553007687L),
        z -> z ^ shiftrightunsigned(z, 27)),
        z -> z * -7723592293110705685L),
        z -> z ^ shiftrightunsigned(z, 31)) as fps
from split
