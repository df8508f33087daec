-- query:  query_shingles
-- reads:  shingles(fingerprint)   (in the scratch database that holds only the query document)
-- params: (none)
-- The shingle fingerprints of the query text (`dedup query --text` on a signature/exact index).
select fingerprint from shingles
