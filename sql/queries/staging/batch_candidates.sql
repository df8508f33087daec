-- query:  batch_candidates
-- reads:  main.candidates(doc_id_a, ...)
-- params: $first, $last
-- One batch of candidates (dedup/runner.py), as staging.candidates: the verification then reads it
-- instead of main.candidates, through the search path (sql/queries/staging_enter.sql).
select * from main.candidates where doc_id_a between $first and $last
