-- query:  audit_candidates
-- reads:  audit_prefixes(doc_id, fingerprint), shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: audit_candidates(doc_id_s, doc_id_d)
-- params: $threshold
-- Every document D that may reach J(S, D) >= t with a sampled document S: it holds one of S's
-- prefix shingles (audit_prefixes.sql) and its size is within the bounds t |S| <= |D| <= |S| / t
-- (J <= min / max of the sizes).
select distinct p.doc_id as doc_id_s, s.doc_id as doc_id_d
from audit_prefixes as p
join shingles as s on s.fingerprint = p.fingerprint
join signatures as zs on zs.doc_id = p.doc_id
join signatures as zd on zd.doc_id = s.doc_id
where s.doc_id <> p.doc_id
    and zd.n_shingles >= $threshold * zs.n_shingles - 1e-9
    and zs.n_shingles >= $threshold * zd.n_shingles - 1e-9
