-- query:  staging_append_pairs
-- reads:  staging.{{ table }}(doc_id_a, doc_id_b, id_a, id_b, jaccard, estimate)
-- writes: main.{{ table }}(doc_id_a, doc_id_b, id_a, id_b, jaccard, estimate)
-- params: (none)
-- Append the staged rows of a pair table that names its documents by id ({{ table }}: a quoted
-- name from dedup's own list; the pairs). A run numbers documents in id order, so its pairs have id_a < id_b;
-- added documents are numbered after the indexed ones, so their pairs are put in that order here.
insert into main.{{ table }} by name
select
    if(id_a < id_b, doc_id_a, doc_id_b) as doc_id_a,
    if(id_a < id_b, doc_id_b, doc_id_a) as doc_id_b,
    least(id_a, id_b) as id_a,
    greatest(id_a, id_b) as id_b,
    jaccard,
    estimate
from staging.{{ table }}
