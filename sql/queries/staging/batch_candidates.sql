-- query:  batch_candidates
-- reads:  main.{{ candidates }}(doc_id_a, ...)
-- params: $first, $last
-- One batch of candidates (dedup/runner.py), as the temporary table candidates: the verification
-- then reads it instead of main.candidates (DuckDB reads a temporary table first). Run before that
-- table exists: `main.candidates` would otherwise name it. {{ candidates }}: `candidates`, or in a
-- lean run `candidates_between`, the candidates between distinct texts by their groups'
-- representatives (sql/fragments/between_rows.sql): the verification makes of them the rows its
-- database stores, the view lists them for every member (dedup.stages.Plan.verify_texts).
select * from main.{{ candidates }} where doc_id_a between $first and $last
