-- query:  derived_listed_doc_ids
-- params: $doc_ids
-- The documents a command names (explain's two, a query's one), whose shingles or signatures a
-- lean index makes again for it (dedup/runner.py, recomputed).
select unnest($doc_ids::bigint[]) as doc_id
