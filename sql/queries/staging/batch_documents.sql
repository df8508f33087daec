-- query:  batch_documents
-- reads:  main.documents(doc_id, ...)
-- params: $first, $last
-- One batch of documents (dedup/runner.py), as the temporary table documents: the per-document
-- stages then read it instead of main.documents (DuckDB reads a temporary table first). Run before
-- that table exists: `main.documents` would otherwise name it.
select * from main.documents where doc_id between $first and $last
