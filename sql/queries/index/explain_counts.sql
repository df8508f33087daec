-- query:  explain_counts
-- reads:  shingles(doc_id, fingerprint)
-- params: $doc_a, $doc_b
-- dedup explain: the shingle counts of two documents and how many shingles they share.
select
    (select count(*) from shingles where doc_id = $doc_a),
    (select count(*) from shingles where doc_id = $doc_b),
    (select count(*) from shingles as a join shingles as b on a.fingerprint = b.fingerprint
     where a.doc_id = $doc_a and b.doc_id = $doc_b)
