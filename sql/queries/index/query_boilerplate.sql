-- query:  query_boilerplate (the index's left-out shingles, for the stages a query text runs)
-- reads:  boilerplate(fingerprint, df)
-- params: (none)
-- A query text's shingles leave out what the index's documents leave out (--max-shingle-df): the
-- scratch database of `dedup query` reads the index's boilerplate table, not one of its own.
select fingerprint, df from boilerplate
