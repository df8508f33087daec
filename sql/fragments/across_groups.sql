-- fragment: across_groups
-- reads:    stored_rows(doc_id_a, doc_id_b), members(doc_id, rep)   (CTEs of the statement)
-- params:   (none)
-- A CTE of the views of a lean database's pair tables (sql/queries/staging/between_view_*.sql:
-- `stored_rows` their stored table, `members` sql/fragments/copy_pairs.sql's) and of the candidates
-- stage (sql/fragments/copies_expanded.sql: the pairs of representatives and the groups):
-- `across`, every row of `stored_rows` (pairs of two distinct texts, by their groups'
-- representatives: sql/fragments/between_rows.sql) once for each member of the one group and each
-- member of the other, as (member_a < member_b) beside the row's columns. A representative with no
-- row in `members` is a group of one: itself.
across as (
    select
        least(coalesce(ma.doc_id, s.doc_id_a), coalesce(mb.doc_id, s.doc_id_b)) as member_a,
        greatest(coalesce(ma.doc_id, s.doc_id_a), coalesce(mb.doc_id, s.doc_id_b)) as member_b,
        s.*
    from stored_rows as s
    left join members as ma on ma.rep = s.doc_id_a
    left join members as mb on mb.rep = s.doc_id_b
)
