-- query:  between_view_verified
-- reads:  verified_between(*), copies(doc_id, rep, shared_bands), signatures(doc_id, n_shingles)
-- writes: {{ database }}.main.verified   (a view)
-- params: (none)
-- Every verified candidate, as the stage made it: those stored between two distinct texts, for every
-- member of the one text's group and of the other's (the same sets, so the same counts), and every
-- pair of two members of one group, whose sets are equal: intersection = union = n_shingles,
-- Jaccard n / n = 1 (sql/fragments/verified_counts.sql computes the same bits).
create or replace view {{ database }}.main.verified as
with
{{ copy_pairs }},
stored_rows as (
    select * from verified_between
),
{{ across_groups }}
select member_a as doc_id_a, member_b as doc_id_b, shared_bands, intersection, union_size, jaccard
from across
union all
select
    c.doc_id_a,
    c.doc_id_b,
    c.shared_bands,
    s.n_shingles as intersection,
    s.n_shingles as union_size,
    s.n_shingles / s.n_shingles as jaccard
from copy_pairs as c
join signatures as s on s.doc_id = c.doc_id_a
