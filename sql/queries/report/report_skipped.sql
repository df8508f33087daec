-- query:  report_skipped
-- reads:  skipped(source, reason)
-- writes: (none: a SELECT for `dedup report`)
-- params: (none)
-- Skipped inputs per reason, with how many and the first source of each.
select reason, count(*) as inputs, min(source) as example
from skipped
group by reason
order by inputs desc, reason
