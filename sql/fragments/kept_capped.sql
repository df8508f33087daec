-- fragment: kept_capped (the shingles stage's rows with --max-shingle-df, both engines)
-- reads:    all_shingles(doc_id, fingerprint), documents(doc_id, norm), boilerplate(fingerprint)
-- params:   (none)
-- The shingles of each document read (all_shingles holds every document's: a batch's are those of
-- its documents) but those of the boilerplate table (sql/02_boilerplate.sql: held by more
-- distinct texts than the cap). A document that had shingles and is left with none has one in
-- their place, standing for its whole normalized text: the first 8 bytes of its MD5, read
-- little-endian (sql/fragments/digest_fingerprint.sql, and Spark's: as a word's fingerprint is,
-- sql/fragments/tokens_word.sql). Its exact copies have the same one, so they stay a pair
-- (Jaccard 1), and no other document has it (up to a collision of 64-bit fingerprints, as for any
-- shingle): it pairs with nothing else, never by emptiness.
flagged as (
    select r.doc_id, r.fingerprint, b.fingerprint is not null as left_out
    from all_shingles as r
    left join boilerplate as b on b.fingerprint = r.fingerprint
    where r.doc_id in (select doc_id from documents)
),
emptied as (
    select doc_id from flagged group by doc_id having bool_and(left_out)
),
kept_rows as (
    select doc_id, fingerprint from flagged where not left_out
    union all
    select doc_id, {{ digest_fingerprint }} as fingerprint
    from (
        select doc_id, md5(norm) as d
        from documents
        where doc_id in (select doc_id from emptied)
    ) as e
)
