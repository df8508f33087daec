-- query:  query_shared_shingles
-- reads:  shingles(doc_id, fingerprint), signatures(doc_id, n_shingles), documents(doc_id, id),
--         band_hashes(doc_id, band, bucket), query_fingerprints(fingerprint), query_buckets(band, bucket)
-- writes: (nothing: the similar documents of one query, as `dedup query` prints them)
-- params: $exclude, $min_jaccard
-- `dedup query` on an index built with --method signature or exact: no band shortcut, every
-- document sharing a shingle with the query is a candidate, and its exact Jaccard is
-- |shared| / (|query| + |document| - |shared|) on the stored fingerprints. shared_bands is
-- reported as for an lsh index (0 when no band collided).
with shared as (
    select s.doc_id, count(*) as shared
    from shingles as s
    join query_fingerprints as q on q.fingerprint = s.fingerprint
    where s.doc_id <> $exclude
    group by s.doc_id
),
probed as (
    select h.doc_id, count(*) as shared_bands
    from band_hashes as h
    join query_buckets as q on q.band = h.band and q.bucket = h.bucket
    where h.doc_id <> $exclude
    group by h.doc_id
),
scored as (
    select
        sh.doc_id,
        sh.shared / (g.n_shingles + (select count(*) from query_fingerprints) - sh.shared) as jaccard
    from shared as sh
    join signatures as g on g.doc_id = sh.doc_id
)
select d.id, j.jaccard, coalesce(p.shared_bands, 0) as shared_bands
from scored as j
join documents as d on d.doc_id = j.doc_id
left join probed as p on p.doc_id = j.doc_id
where j.jaccard >= $min_jaccard
order by j.jaccard desc, d.id
