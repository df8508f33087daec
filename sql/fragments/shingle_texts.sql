-- fragment: shingle_texts (each shingle of the chosen documents with its text: `dedup explain`, the report)
-- reads:    chosen_documents(doc_id, norm)   (a CTE of the statement)
-- params:   $k
-- Only fingerprints are stored, so the texts are recomputed from the tokens the shingles stage uses
-- (sql/fragments/tokens_*.sql), with the same fingerprint (sql/02_shingles.sql). Shingle i takes
-- tokens i .. i+k-1: the k slices fps[1 + j .. n - k + 1 + j] (j = 0 .. k-1), unnested side by
-- side, give row i its k token fingerprints as columns f0 .. f{k-1} and their texts as t0 .. t{k-1}.
-- One row (doc_id, fingerprint, shingle) per distinct shingle of a document.
tokens as (
{{ tokens }}
),
windows as (
    select
        doc_id,
        {{ shingle_windows }}
    from tokens
),
shingle_texts as (
    select doc_id, {{ shingle_fingerprint }} as fingerprint, min({{ shingle_text }}) as shingle
    from windows
    group by all
)
