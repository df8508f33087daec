-- query:  add_copies
-- reads:  band_hashes(doc_id, band, bucket), documents(doc_id, id, norm), signatures(doc_id, n_shingles), main.copies(doc_id)
-- writes: main.copies(doc_id, rep, shared_bands)
-- params:  $first_new, $bands, $num_perm, $threshold  (one of the three: the method's sql/fragments/copy_shared_bands_*.sql)
-- `dedup add`: the groups of exact copies that the added documents (doc_id >= $first_new) join or
-- make, as sql/04_copies.sql groups them, among the documents that share an added document's
-- band-0 bucket (every copy of it does). A group's representative is its smallest doc_id, never an
-- added one when the group had members, so the rows of `copies` stay as they are and the new
-- members (and an indexed document that gets its first copy) are inserted.
insert into main.copies by name
with involved as (
    select h.doc_id
    from band_hashes as h
    semi join (
        select bucket from band_hashes where band = 0 and doc_id >= $first_new
    ) as n on n.bucket = h.bucket
    where h.band = 0
),
copy_rows as (
{{ copy_rows }}
)
select doc_id, rep, shared_bands from copy_rows
where doc_id not in (select doc_id from main.copies)
