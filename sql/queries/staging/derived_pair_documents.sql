-- query:  derived_pair_documents
-- reads:  {{ pairs }}(doc_id_a, doc_id_b)
-- params: (none)
-- The documents of a pair table ({{ pairs }}: a quoted stage name from dedup's own list; a
-- batch's temporary table when one exists), whose shingles or signatures a lean database
-- recomputes for a statement that reads them (dedup/derived.py).
select doc_id_a as doc_id from {{ pairs }}
union
select doc_id_b from {{ pairs }}
