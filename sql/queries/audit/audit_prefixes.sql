-- query:  audit_prefixes
-- reads:  audit_shingles(doc_id, fingerprint), shingles(fingerprint), signatures(doc_id, n_shingles)
-- writes: audit_prefixes(doc_id, fingerprint)
-- params: $threshold
-- An exact search needs, for a sampled document S of n shingles, only its p = n - ceil(t n) + 1
-- rarest ones: J(S, D) >= t means |S n D| >= t |S u D| >= t n, so D holds at least ceil(t n) of
-- S's shingles and so one of any p of them (the prefix filter, one-sided: Bayardo, Ma, Srikant
-- 2007). The rarest (by document frequency, then fingerprint) keep the lists of documents holding
-- them short. The 1e-9 slack only lengthens a prefix.
with frequencies as (
    select s.fingerprint, count(*) as df
    from shingles as s
    semi join (select distinct fingerprint from audit_shingles) as f on f.fingerprint = s.fingerprint
    group by s.fingerprint
),
ranked as (
    select a.doc_id, a.fingerprint, row_number() over (partition by a.doc_id order by f.df, a.fingerprint) as rank
    from audit_shingles as a
    join frequencies as f on f.fingerprint = a.fingerprint
)
select r.doc_id, r.fingerprint
from ranked as r
join signatures as z on z.doc_id = r.doc_id
where r.rank <= z.n_shingles - ceil($threshold * z.n_shingles - 1e-9) + 1
