-- query:  audit_shingles
-- reads:  shingles(doc_id, fingerprint), audit_sample(doc_id)
-- writes: audit_shingles(doc_id, fingerprint)
-- params: (none)
-- The shingles of the sampled documents (dedup audit; dedup query --exact samples one).
select s.doc_id, s.fingerprint
from shingles as s
semi join audit_sample as a on a.doc_id = s.doc_id
