-- query:  spark_skipped
-- reads:  raw_skipped(source, reason)
-- params: (none)
-- dialect: spark only: the inputs that were not loaded, each with its reason (few rows).
select source, reason from raw_skipped order by source
