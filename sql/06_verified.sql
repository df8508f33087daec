-- stage:  verified
-- reads:  candidates(doc_id_a, doc_id_b, shared_bands), copies(doc_id, rep), shingles(doc_id, fingerprint), signatures(doc_id, n_shingles)
-- writes: verified(doc_id_a, doc_id_b, shared_bands, intersection, union_size, jaccard)
-- params: (none)
-- scope:  pairs
-- lean:   between copies  (a row for each pair of distinct texts, by their groups' representatives: dedup.stages.Layout)
-- batch:  candidates
-- One row per candidate with its exact Jaccard similarity |A n B| / |A u B| over the two
-- distinct-shingle sets (64-bit fingerprints). The estimate is never trusted alone.
-- Exact copies first: candidates' documents with the same normalized text have the same shingle
-- set, so the shingles are joined once per pair of such groups, on their representatives (the
-- smallest doc_id of each group, sql/04_copies.sql; any member gives the same counts), and two copies have
-- intersection = union = n_shingles, Jaccard 1. The counts, hence the Jaccard's bits, are those
-- of the join on every candidate: on real corpora most candidates pair copies of one text.
-- Only the shingles of representatives in some pair are joined (a semi join first): joining the
-- candidates with the whole shingles table let DuckDB plan a pre-aggregation over all of it,
-- 11 s instead of 2.6 s at 200k documents (37M shingles).
-- sb joins on the pair (doc_id, fingerprint) as one key: with two separate equalities the
-- optimizer may join sa with sb on the fingerprint alone first (every pair of documents sharing a
-- common shingle), which it did on a shingles table written in batches: > 300 s instead of 3 s.
with
{{ candidate_reps }},
rep_shingles as (
    select s.doc_id, s.fingerprint
    from shingles as s
    semi join reps using (doc_id)
),
shared as (
    select p.rep_a, p.rep_b, count(*) as intersection
    from rep_pairs as p
    join rep_shingles as sa on sa.doc_id = p.rep_a
    join rep_shingles as sb on (sb.doc_id, sb.fingerprint) = (p.rep_b, sa.fingerprint)
    group by p.rep_a, p.rep_b
),
{{ verified_counts }}
