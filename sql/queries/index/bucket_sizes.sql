-- query:  bucket_sizes
-- reads:  band_hashes(band, bucket)
-- params: (none)
-- Per band: how many buckets, how many hold one document or several, the largest and the mean
-- size (dedup buckets).
with sizes as (
    select band, bucket, count(*) as size from band_hashes group by band, bucket
)
select
    band,
    count(*) as buckets,
    count(*) filter (where size = 1) as single,
    count(*) filter (where size > 1) as shared,
    max(size) as largest,
    avg(size) as mean_size
from sizes
group by band
order by band
