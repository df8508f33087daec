-- stage:  candidates
-- reads:  shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $threshold
-- counts: candidates
-- scope:  pairs
-- lean:   between copies  (a row for each pair of distinct texts, by their groups' representatives: dedup.stages.Layout)
-- methods: exact
-- Every pair that can reach Jaccard >= threshold t, found without hashing shortcuts by prefix
-- filtering (AllPairs: Bayardo, Ma, Srikant 2007). Order all shingles rarest first (document
-- frequency, then fingerprint). J(A, B) >= t needs sizes t|B| <= |A| <= |B| and an overlap of at
-- least a = t/(1+t) (|A| + |B|); then the first |A| - a + 1 shingles of A and the first |B| - a + 1
-- of B share one. For the smaller set (A, ties broken by doc_id) a >= 2t/(1+t) |A|, for the
-- larger a >= t |B| (as |A| >= t|B|), so A's short "index" prefix |A| - ceil(2t/(1+t)|A|) + 1 is
-- joined with B's "probe" prefix |B| - ceil(t|B|) + 1. The 1e-9 slack only lengthens prefixes
-- and widens size bounds, so rounding cannot lose a pair; verification keeps exactly those >= t.
-- Then the positional filter (PPJoin: Xiao, Wang, Lin, Yu 2008), once per pair: both sets list
-- their shingles in the same order, so every shared shingle before a pair's last prefix match is
-- itself a match, and at most min(|A| - i, |B| - j) more follow the last one (at positions i, j):
-- a pair whose matches plus that bound stay below the overlap a is dropped before verification.
-- shared_bands counts the shared prefix shingles (this method has no bands).
with frequencies as (
    select fingerprint, count(*) as df
    from shingles
    group by fingerprint
),
sizes as (
    select
        doc_id,
        n_shingles,
        n_shingles - ceil(2 * $threshold / (1 + $threshold) * n_shingles - 1e-9) + 1 as index_length,
        n_shingles - ceil($threshold * n_shingles - 1e-9) + 1 as probe_length
    from signatures
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
    select r.doc_id, r.fingerprint, r.position, z.n_shingles, z.index_length
    from ranked as r
    join sizes as z on z.doc_id = r.doc_id
    where r.position <= z.probe_length
)
select least(a.doc_id, b.doc_id) as doc_id_a, greatest(a.doc_id, b.doc_id) as doc_id_b, count(*) as shared_bands
from prefixes as a
join prefixes as b
    on a.fingerprint = b.fingerprint
    and a.position <= a.index_length
    and (a.n_shingles < b.n_shingles or (a.n_shingles = b.n_shingles and a.doc_id < b.doc_id))
    and a.n_shingles >= $threshold * b.n_shingles - 1e-9
group by all
having count(*) + least(min(a.n_shingles - a.position), min(b.n_shingles - b.position))
    >= $threshold / (1 + $threshold) * (max(a.n_shingles) + max(b.n_shingles)) - 1e-9
