-- query:  query_text
-- reads:  documents(doc_id, text)
-- params: $doc_id
-- The text of one indexed document.
select text from documents where doc_id = $doc_id
