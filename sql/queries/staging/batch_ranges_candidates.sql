-- query:  batch_ranges_candidates
-- reads:  {{ candidates }}(doc_id_a, doc_id_b), signatures(doc_id, n_shingles)
-- params: $shingles, $bands
-- The batches in which a run verifies its candidates (dedup/runner.py): ranges of consecutive
-- doc_id_a whose candidates' two documents have about $shingles shingles in all, counted once per
-- candidate (the rows the verification joins); a range ends where that running count passes a
-- multiple of $shingles. Every candidate counts (a document without a signature row counts 0), so
-- the ranges cover every doc_id_a of the candidates. {{ candidates }}: as batch_candidates.sql reads them.
-- A candidate that is likely a pair of exact copies (colliding in every band, with as many shingles
-- on both sides) counts 16 rows: the verification joins no shingles for copies
-- (sql/06_verified.sql), and counting their shingles made 180 batches of 20M candidates, most of
-- them copies, where 20 do. (Only the batch sizes depend on this guess, never a result.)
with sizes as (
    select
        c.doc_id_a,
        sum(
            case
                when c.shared_bands = $bands and na.n_shingles = nb.n_shingles then 16
                else coalesce(na.n_shingles, 0) + coalesce(nb.n_shingles, 0)
            end
        ) as shingles
    from {{ candidates }} as c
    left join signatures as na on na.doc_id = c.doc_id_a
    left join signatures as nb on nb.doc_id = c.doc_id_b
    group by c.doc_id_a
),
running as (
    select doc_id_a, sum(shingles) over (order by doc_id_a) as shingles
    from sizes
)
select min(doc_id_a) as first_doc_id, max(doc_id_a) as last_doc_id
from running
group by (shingles - 1) // $shingles
order by first_doc_id
