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
-- becomes one space; the regex replaces only the runs that are not already one space). Then k
-- passes over it, pass s = 0 .. k-1 cutting it into consecutive non-overlapping groups of k
-- tokens starting at token s, by one regex scan: together the passes give every start
-- 0 .. n-k once. Pass s starts at token s without cutting tokens off: it scans the text behind
-- (k - s) mod k placeholder tokens ('.') and drops its first group (placeholders and tokens
-- 0 .. s-1), so every pass uses the same constant regex. Each row is a string that is scanned
-- linearly: no token list is sliced or carried per shingle (which was quadratic over a
-- book-length document, or needed regrouping into pieces: 11-12 CPU-s against ~6 on the long
-- workload), and a document's k passes spread over the threads.
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as tokens
    from {{ documents }}
),
counted as (
    select doc_id, tokens, strlen(tokens) - strlen(replace(tokens, ' ', '')) + 1 as n
    from joined
    where tokens <> ''
),
passes as (
    select doc_id, tokens, n, unnest(range(if(n <= $k, 1, $k))) as s
    from counted
)
select doc_id, unnest(if(
    n <= $k,
    [tokens],
    regexp_extract_all(repeat('. ', ($k - s) % $k) || tokens, '[^ ]+(?: [^ ]+){' || ($k - 1) || '}')[if(s = 0, 1, 2) :]
)) as shingle
from passes
