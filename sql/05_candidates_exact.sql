-- stage:  candidates
-- reads:  shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $threshold
-- methods: exact
-- Every pair that can reach Jaccard >= threshold, found without hashing shortcuts by prefix
-- filtering (AllPairs: Bayardo, Ma, Srikant 2007; Chaudhuri, Ganti, Kaushik 2006). Order all
-- shingles rarest first (document frequency, then fingerprint). If |A n B| / |A u B| >= t then
-- |A n B| >= t*|A|, so A and B share a shingle among the first |A| - ceil(t*|A|) + 1 of A's
-- ordered shingles, and likewise for B: only those prefixes are joined. Sizes must also satisfy
-- t*|A| <= |B| <= |A|/t. The 1e-9 slack makes prefixes longer and size bounds wider, never
-- shorter, so rounding cannot lose a pair; verification then keeps exactly those >= t.
-- shared_bands counts the shared prefix shingles (there are no bands in this method).
create or replace table candidates as
with frequencies as (
    select fingerprint, count(*) as df
    from shingles
    group by fingerprint
),
ranked as (
    select
        s.doc_id,
        s.fingerprint,
        row_number() over (partition by s.doc_id order by f.df, s.fingerprint) as position
    from shingles as s
    join frequencies as f on f.fingerprint = s.fingerprint
),
prefixes as (
    select r.doc_id, r.fingerprint, n.n_shingles
    from ranked as r
    join signatures as n on n.doc_id = r.doc_id
    where r.position <= n.n_shingles - ceil($threshold * n.n_shingles - 1e-9) + 1
)
select a.doc_id as doc_id_a, b.doc_id as doc_id_b, count(*) as shared_bands
from prefixes as a
join prefixes as b
    on a.fingerprint = b.fingerprint
    and a.doc_id < b.doc_id
    and b.n_shingles >= $threshold * a.n_shingles - 1e-9
    and a.n_shingles >= $threshold * b.n_shingles - 1e-9
group by a.doc_id, b.doc_id
