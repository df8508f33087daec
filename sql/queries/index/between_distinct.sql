-- query:  between_distinct
-- reads:  copies(doc_id, rep)
-- writes: {{ table }}
-- params: (none)
-- Before `dedup add` or `dedup remove` changes a lean index: its pair tables store the rows between
-- distinct texts by their groups' representatives (sql/fragments/between_rows.sql). An index of a
-- dedup before that (2026-12-06) stored every row between two groups, each member's: those with an
-- end that is not its group's representative go (a store of the rows between texts has none), and
-- the views that list them from `copies` are made again. {{ table }}: a name from dedup's own list.
delete from {{ table }}
where doc_id_a in (select doc_id from copies where doc_id <> rep)
    or doc_id_b in (select doc_id from copies where doc_id <> rep)
