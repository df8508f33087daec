-- query:  query_stored_shingles
-- reads:  shingles(doc_id, fingerprint)
-- params: $doc_id
-- The shingle fingerprints of one indexed document (`dedup query --id` on a signature/exact index).
select fingerprint from shingles where doc_id = $doc_id
