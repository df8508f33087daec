-- query:  report_near_threshold
-- reads:  verified(jaccard)
-- writes: (none: a SELECT for `dedup report`)
-- params: $low, $threshold
-- Verified candidates just below the threshold: Jaccard in [$low, $threshold).
select count(*) as candidates
from verified
where jaccard >= $low and jaccard < $threshold
