-- query:  report_missed_pairs
-- reads:  verified(jaccard)
-- writes: (none: a SELECT for `dedup report`)
-- params: $threshold, $bands, $rows
-- Pairs LSH missed, estimated from the pairs it found: a pair of Jaccard J becomes a candidate
-- with probability P(J) = 1 - (1 - J^r)^b, so each found pair stands for 1 / P(J) pairs of its
-- similarity and (1 - P(J)) / P(J) missed ones (the Horvitz-Thompson estimate).
select coalesce(sum((1 - p) / p), 0) as missed, count(*) as found
from (
    select 1 - power(1 - power(jaccard, $rows), $bands) as p
    from verified
    where jaccard >= $threshold and jaccard > 0
)
