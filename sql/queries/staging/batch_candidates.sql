-- query:  batch_candidates
-- reads:  main.candidates(doc_id_a, ...)
-- params: $first, $last
-- One batch of candidates (dedup/runner.py), as the temporary table candidates: the verification
-- then reads it instead of main.candidates (DuckDB reads a temporary table first). Run before that
-- table exists: `main.candidates` would otherwise name it.
select * from main.candidates where doc_id_a between $first and $last
