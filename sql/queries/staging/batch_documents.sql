-- query:  batch_documents
-- reads:  main.documents(doc_id, ...)
-- params: $first, $last
-- One batch of documents (dedup/runner.py), as staging.documents: the per-document stages
-- then read it instead of main.documents, through the search path (sql/queries/staging_enter.sql).
select * from main.documents where doc_id between $first and $last
