-- query:  batch_documents
-- reads:  main.documents(doc_id, norm)
-- params: $first, $last
-- One batch of documents (dedup/runner.py), as the temporary table documents: the per-document
-- stages then read it instead of main.documents (DuckDB reads a temporary table first). Run before
-- that table exists: `main.documents` would otherwise name it. The stages of a batch read a
-- document's doc_id and norm alone (their `reads:` headers), so the batch copies those, not its
-- text, id and position.
select doc_id, norm from main.documents where doc_id between $first and $last
