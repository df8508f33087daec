-- query:  between_view_pairs
-- reads:  pairs_between(*), copies(doc_id, rep), documents(doc_id, id)
-- writes: {{ database }}.main.pairs   (a view)
-- params: (none)
-- Every pair, as the stage made it: those stored between two distinct texts, for every member of
-- the one text's group and of the other's (the same Jaccard and estimate; their own ids), and every
-- pair of two members of one group, of Jaccard 1 and estimate 1 (sql/07_pairs.sql gives two copies
-- $num_perm / $num_perm). `select * from pairs` lists them all, as from a table.
create or replace view {{ database }}.main.pairs as
with
{{ copy_pairs }},
stored_rows as (
    select * from pairs_between
),
{{ across_groups }},
every_pair as (
    select member_a as doc_id_a, member_b as doc_id_b, jaccard, estimate
    from across
    union all
    select doc_id_a, doc_id_b, cast(1 as double) as jaccard, cast(1 as double) as estimate
    from copy_pairs
)
select p.doc_id_a, p.doc_id_b, da.id as id_a, db.id as id_b, p.jaccard, p.estimate
from every_pair as p
join documents as da on da.doc_id = p.doc_id_a
join documents as db on db.doc_id = p.doc_id_b
