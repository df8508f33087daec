-- stage:  copies
-- reads:  band_hashes(doc_id, band, bucket), documents(doc_id, id, norm), signatures(doc_id, n_shingles)
-- writes: copies(doc_id, rep, shared_bands)
-- params:  $bands, $num_perm, $threshold  (one of the three: the method's sql/fragments/copy_shared_bands_*.sql)
-- scope:  groups
-- One row per document of a group of two or more exact copies (the same normalized text, with
-- shingles): its group's representative, the group's smallest doc_id, and the shared_bands that
-- the candidates stage gives two members of the group (per method: sql/fragments/copy_shared_bands_*.sql). Every
-- pair of two members is a candidate, a verified pair of Jaccard 1 and a pair, so a lean database
-- stores the pair tables between distinct texts, by their groups' representatives, and lists the
-- pairs of every member from this table (dedup.stages.Layout, sql/fragments/between_rows.sql,
-- sql/queries/staging/between_view_<table>.sql): a group of 5,000 copies is 5,000 rows here, not
-- 12.5M rows in each pair table. Copies share every bucket, so only the
-- documents that share their band-0 bucket with another are compared (sql/05_candidates.sql).
with involved as (
    select h.doc_id
    from band_hashes as h
    semi join (
        select bucket from band_hashes where band = 0 group by bucket having count(*) > 1
    ) as s on s.bucket = h.bucket
    where h.band = 0
),
copy_rows as (
{{ copy_rows }}
)
select doc_id, rep, shared_bands from copy_rows
