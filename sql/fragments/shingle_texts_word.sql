-- fragment: shingle_texts (word shingles)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   $k
-- One row per shingle occurrence: (doc_id, shingle text). Shared by sql/02_shingles.sql, which
-- hashes and stores the distinct fingerprints, and sql/queries/shingle_texts.sql (dedup explain),
-- which shows the texts: one definition of a shingle for both.
-- A word k-shingle is k consecutive tokens joined by one space.
-- A token is a maximal run of Unicode letters, digits and '_' (Python's \w+). A document with
-- fewer than k tokens is one shingle (all its tokens); a document without tokens has none.
-- How: `tokens` is the document's tokens joined by one space (every run of other characters
-- becomes one space; the regex replaces only the runs that are not already one space), and
-- `words` the list of its n tokens (a plain split, no regex). Shingle i is words[i .. i+k-1]: the
-- k lists words[1 + j .. n - k + 1 + j] (j = 0 .. k-1), unnested side by side, give row i its k
-- tokens. Each list is sliced once per document, so the work stays linear in its length (slicing
-- per shingle was quadratic over a book-length document). On the long workload and on Python's
-- standard library this took ~1 CPU-s less than k regex passes over `tokens` (the previous
-- form: 4.3 -> 3.3 CPU-s on long's 6.0M shingles), with the same shingles.
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as tokens
    from {{ documents }}
),
counted as (
    select doc_id, tokens, strlen(tokens) - strlen(replace(tokens, ' ', '')) + 1 as n
    from joined
    where tokens <> ''
),
windows as (
    select
        doc_id,
        {{ word_windows }}
    from (select doc_id, n, string_split(tokens, ' ') as words from counted where n > $k)
)
select doc_id, tokens as shingle
from counted
where n <= $k
union all
select doc_id, concat_ws(' ', {{ word_window_columns }}) as shingle
from windows
