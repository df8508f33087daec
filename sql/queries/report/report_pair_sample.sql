-- query:  report_pair_sample
-- reads:  verified(doc_id_a, doc_id_b, shared_bands, jaccard), documents(doc_id, id, text),
--         signatures(doc_id, mh_*), clusters(doc_id, cluster_id, is_survivor)
-- writes: (none: a SELECT for `dedup report`)
-- params: $threshold, $sample_bins, $limit, $max_chars, $num_perm
-- A sample of verified candidates across the similarity range, near the threshold first: the
-- candidates fall in $sample_bins equal bins of Jaccard; each bin offers its candidates nearest
-- the threshold first, and the bins take turns, nearest the threshold first (the kept side first
-- on a tie). Texts are cut to $max_chars characters; `length_*` is the full length. $limit >= 1.
with binned as (
    select
        doc_id_a,
        doc_id_b,
        shared_bands,
        jaccard,
        least(floor(jaccard * $sample_bins)::integer, $sample_bins - 1) as bin
    from verified
),
-- the $limit candidates of each bin nearest the threshold, ids breaking ties: a top-n
-- aggregate, not a sort of every candidate (10x faster on 10 million candidates)
per_bin as (
    select
        bin,
        min_by(
            {'doc_id_a': doc_id_a, 'doc_id_b': doc_id_b, 'shared_bands': shared_bands, 'jaccard': jaccard},
            {'distance': abs(jaccard - $threshold), 'doc_id_a': doc_id_a, 'doc_id_b': doc_id_b},
            $limit
        ) as picks
    from binned
    group by bin
),
ranked as (
    select
        bin,
        unnest(picks, recursive := true),
        generate_subscripts(picks, 1) as rank_in_bin,
        abs((bin + 0.5) / $sample_bins - $threshold) as bin_distance
    from per_bin
),
chosen as (
    select *
    from ranked
    order by rank_in_bin, bin_distance, bin desc
    limit $limit
)
select
    c.doc_id_a,
    c.doc_id_b,
    da.id as id_a,
    db.id as id_b,
    c.jaccard,
    ({{ equal_minhash_count }}) / $num_perm as estimate,
    c.shared_bands,
    c.jaccard >= $threshold as kept,
    coalesce(ca.is_survivor, true) as survivor_a,
    coalesce(cb.is_survivor, true) as survivor_b,
    left(da.text, $max_chars) as text_a,
    left(db.text, $max_chars) as text_b,
    length(da.text) as length_a,
    length(db.text) as length_b
from chosen as c
join documents as da on da.doc_id = c.doc_id_a
join documents as db on db.doc_id = c.doc_id_b
join signatures as sa on sa.doc_id = c.doc_id_a
join signatures as sb on sb.doc_id = c.doc_id_b
left join clusters as ca on ca.doc_id = c.doc_id_a
left join clusters as cb on cb.doc_id = c.doc_id_b
order by c.rank_in_bin, c.bin_distance, c.bin desc
