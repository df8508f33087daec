-- fragment: shingle_rows (a document's distinct shingle fingerprints, before any is left out)
-- reads:    documents(doc_id, norm)   (or the relation the mark `documents` names: the distinct texts)
-- params:   $k, $long_bytes
-- One row (doc_id, fingerprint) per distinct shingle of each document read: the rows
-- of the shingles stage (sql/02_shingles.sql, which says how they are computed) before
-- --max-shingle-df leaves any out, and the rows the boilerplate stage counts
-- (sql/02_boilerplate.sql) over one document per distinct text.
with document_slices as (
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 0
    union all
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 1
    union all
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 2
    union all
    select doc_id, if(strlen(norm) > $long_bytes, '', norm) as norm from {{ documents }} where doc_id % 4 = 3
),
tokens as (
{{ tokens_of_slices }}
),
sorted as (
    select doc_id, list_sort(list_transform(fps[1 : n - $k + 1], lambda x, i: {{ shingle_fingerprint }})) as fingerprints
    from tokens
),
distinct_fingerprints as (
    select doc_id, unnest(list_filter(fingerprints, lambda f, i: i = 1 or f <> fingerprints[i - 1])) as fingerprint
    from sorted
),
long_pieces as (
{{ pieces }}
),
long_tokens as (
{{ tokens_of_pieces }}
),
long_fingerprints as (
    select distinct doc_id, fingerprint
    from (
        select doc_id, unnest(list_transform(fps[1 : n - $k + 1], lambda x, i: {{ shingle_fingerprint }})) as fingerprint
        from long_tokens
    )
)
select doc_id, fingerprint from distinct_fingerprints
union all
select doc_id, fingerprint from long_fingerprints
