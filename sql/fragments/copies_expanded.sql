-- fragment: copies_expanded
-- reads:    rep_pairs(rep_a, rep_b, shared_bands), groups(doc_id, rep)   (CTEs of the statement)
-- params:   $bands
-- The candidates of every document from those of the representatives (sql/05_candidates.sql and
-- Spark's): a pair of representatives stands for every pair across their two groups, with the same
-- shared bands (sql/fragments/across_groups.sql, which the views of a lean database's pair tables
-- list their stored rows by), and two members of one group share all $bands bands. A
-- representative with no row in `groups` (the copies stage's table, sql/04_copies.sql) is a group
-- of one: itself. Written once for both engines.
stored_rows as (
    select rep_a as doc_id_a, rep_b as doc_id_b, shared_bands from rep_pairs
),
members as (
    select doc_id, rep from groups
),
{{ across_groups }},
within as (
    select a.doc_id as doc_id_a, b.doc_id as doc_id_b, cast($bands as bigint) as shared_bands
    from groups as a
    join groups as b on a.rep = b.rep and a.doc_id < b.doc_id
)
select member_a as doc_id_a, member_b as doc_id_b, shared_bands from across
union all
select doc_id_a, doc_id_b, shared_bands from within
