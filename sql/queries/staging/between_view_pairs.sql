-- query:  between_view_pairs
-- reads:  pairs_between(*), copies(doc_id, rep), documents(doc_id, id)
-- writes: {{ database }}.main.pairs   (a view)
-- params: (none)
-- Every pair, as the stage made it: those stored between groups of exact copies, and every pair of
-- two members of one group, of Jaccard 1 and estimate 1 (sql/07_pairs.sql gives two copies
-- $num_perm / $num_perm). `select * from pairs` lists them all, as from a table.
create or replace view {{ database }}.main.pairs as
with
{{ copy_pairs }}
select doc_id_a, doc_id_b, id_a, id_b, jaccard, estimate
from pairs_between
union all
select
    c.doc_id_a,
    c.doc_id_b,
    da.id as id_a,
    db.id as id_b,
    cast(1 as double) as jaccard,
    cast(1 as double) as estimate
from copy_pairs as c
join documents as da on da.doc_id = c.doc_id_a
join documents as db on db.doc_id = c.doc_id_b
