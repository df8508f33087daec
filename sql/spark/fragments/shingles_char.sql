-- fragment: shingles (char shingles)
-- reads:    {{ documents }}(doc_id, norm)
-- writes:   (doc_id, fingerprints): one row per document with shingles, the fingerprints of its
--           distinct shingle texts as an array (sql/spark/02_shingles.sql deduplicates them)
-- params:   $k
-- dialect:  spark. Why it differs from sql/fragments/shingles_char.sql: DuckDB cuts texts
-- into pieces because its substr() walks from the start of the string (quadratic on one long
-- text); Spark's regex engine walks the text once and returns every k-shingle: at each code
-- point a lookahead captures the next k code points and the match consumes one code point, so
-- astral characters (emoji) are never split. (?s) makes '.' match every code point: Java's '.'
-- otherwise skips CR, U+0085, U+2028 and U+2029, RE2's only '\n' (all are spaces after
-- normalization, but the fragment does not rely on that). The rows are the same shingle
-- occurrences as DuckDB's: a non-empty text of at most k code points is one shingle, all of it;
-- an empty text has none. The occurrences stay in one array per document (not one row each):
-- array_distinct drops repeated texts before hashing, without a shuffle (a row-level distinct
-- shuffled every shingle occurrence: ~2.5x the CPU on the medium workload); transform() calls
-- md5() once per distinct text, and the fingerprint is sql/spark/fragments/digest_fingerprint.sql.
with texts as (
    select
        doc_id,
        if(
            length(norm) <= $k,
            array(norm),
            regexp_extract_all(norm, concat('(?s)(?=(.{', cast($k as string), '})).'), 1)
        ) as shingles
    from {{ documents }}
    where length(norm) > 0
)
select doc_id, transform(transform(array_distinct(shingles), s -> md5(s)), d -> {{ digest_fingerprint }}) as fingerprints
from texts
