-- query:  between_orient
-- reads:  (none: an UPDATE of the table's own rows)
-- writes: {{ table }}
-- params: (none)
-- After between_rekey.sql: a stored row is (smaller doc_id, larger doc_id), as the stages make it;
-- a successor larger than the row's other end turns it round ({{ swapped }}: both doc_ids, and for
-- the pairs both ids). Names from dedup's own list.
update {{ table }}
set {{ swapped }}
where doc_id_a > doc_id_b
