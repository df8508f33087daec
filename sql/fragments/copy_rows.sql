-- fragment: copy_rows
-- reads:    involved(doc_id), documents(doc_id, id, norm), signatures(doc_id, n_shingles)   (involved: a CTE of the statement)
-- params:   $bands, $num_perm, $threshold  (one of the three: the method's sql/fragments/copy_shared_bands_*.sql)
-- One row per member of a group of two or more exact copies among the documents of `involved`
-- (sql/fragments/exact_copies.sql, copy_groups.sql): the member, its group's representative and the
-- shared_bands that the candidates stage gives two members (sql/fragments/copy_shared_bands_*.sql).
-- The rows of the copies stage (sql/04_copies.sql) and of the groups `dedup add` makes
-- (sql/queries/index/add_copies.sql), one definition for both.
with copies as (
{{ exact_copies }}
),
groups as (
{{ copy_groups }}
)
select g.doc_id, g.rep, {{ copy_shared_bands }} as shared_bands
from groups as g
join signatures as s on s.doc_id = g.doc_id
