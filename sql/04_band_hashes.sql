-- stage:  band_hashes
-- reads:  signatures(doc_id, mh_*)
-- writes: band_hashes(doc_id, band, bucket)
-- params: $bands, $c_0 .. $c_{rows-1}
-- scope:  documents
-- batch:  documents
-- One row per (document, band). bucket combines the band's r minhash values (32-bit each) as
-- the xor of v_j * c_j for fixed odd 32-bit constants c_j, mod 2^48 (hash scheme v5,
-- dedup/hashing.py BUCKET_BITS: 6 bytes a row where DuckDB bitpacks the column): equal bands
-- always share a bucket; different bands share one with probability ~2^-48, which only adds a
-- candidate that verification then rejects. Every method builds this table (signature and exact runs find
-- candidates without it), so that query, explain, buckets and add work on every kept index.
-- It runs in each batch of documents, beside the signatures it reads: a lean database keeps no
-- MinHash values (03_signatures.sql's `lean:` header), so they exist while their batch does.
select
    doc_id,
    unnest(range($bands)) as band,
    unnest({{ bucket_list }}) as bucket
from signatures
