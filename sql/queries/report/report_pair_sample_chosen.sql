-- query:  report_pair_sample_chosen
-- reads:  verified(doc_id_a, doc_id_b, shared_bands, jaccard)
-- writes: report_sample_chosen(doc_id_a, doc_id_b, shared_bands, jaccard, rank_in_bin, bin_distance, bin)
-- params: $threshold, $sample_bins, $limit
-- A sample of verified candidates across the similarity range, near the threshold first: the
-- candidates fall in $sample_bins equal bins of Jaccard; each bin offers its candidates nearest
-- the threshold first, and the bins take turns, nearest the threshold first (the kept side first
-- on a tie). $limit >= 1. report_pair_sample.sql reads it, once a lean index has made its
-- documents' signatures (dedup/html_report/data.py).
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
select * from chosen
