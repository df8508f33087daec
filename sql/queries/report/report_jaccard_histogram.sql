-- query:  report_jaccard_histogram
-- reads:  verified(jaccard)
-- writes: (none: a SELECT for `dedup report`)
-- params: $threshold, $width, $lowest_bin, $highest_bin
-- Exact Jaccard of every verified candidate (kept or not), in bins of $width aligned on the
-- threshold: bin i holds [threshold + i * width, threshold + (i + 1) * width), so bins >= 0 are
-- exactly the kept pairs. The end bins are clamped to [0, 1].
select
    least(greatest(floor((jaccard - $threshold) / $width)::integer, $lowest_bin), $highest_bin) as bin,
    count(*) as candidates
from verified
group by all
order by bin
