-- query:  info_text_bytes
-- reads:  documents(text)
-- params: (none)
-- The documents' text in bytes (UTF-8), against which `dedup info` puts the database's size.
select count(*) as documents, coalesce(sum(strlen(text)), 0) as text_bytes from documents
