-- stage:  candidates
-- reads:  shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: candidates(doc_id_a, doc_id_b, shared_bands)
-- params: $threshold
-- methods: exact
-- dialect: spark. Why it differs from sql/05_candidates_exact.sql: shingles are ranked by
-- (document frequency, fingerprint) and fingerprints are unsigned in DuckDB but signed in Spark:
-- flipping the top bit (xor 2^63) gives the unsigned order, or the prefixes, and so
-- shared_bands, would differ. Everything else is the DuckDB text.
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
        row_number() over (partition by s.doc_id order by f.df, s.fingerprint ^ shiftleft(cast(1 as bigint), 63)) as position
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
