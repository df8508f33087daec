-- query:  report_pair_sample
-- reads:  report_sample_chosen(doc_id_a, doc_id_b, shared_bands, jaccard, rank_in_bin, bin_distance, bin),
--         documents(doc_id, id, text), signatures(doc_id, mh_*), clusters(doc_id, is_survivor)
-- writes: (none: a SELECT for `dedup report`)
-- params: $threshold, $max_chars, $num_perm
-- The sampled candidates (report_pair_sample_chosen.sql) with their MinHash estimate, whether they
-- are kept, and their texts cut to $max_chars characters; `length_*` is the full length.
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
from report_sample_chosen as c
join documents as da on da.doc_id = c.doc_id_a
join documents as db on db.doc_id = c.doc_id_b
join signatures as sa on sa.doc_id = c.doc_id_a
join signatures as sb on sb.doc_id = c.doc_id_b
left join clusters as ca on ca.doc_id = c.doc_id_a
left join clusters as cb on cb.doc_id = c.doc_id_b
order by c.rank_in_bin, c.bin_distance, c.bin desc
