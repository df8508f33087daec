-- query:  kept_documents
-- reads:  documents(doc_id, id, text, position), clusters(doc_id, is_survivor)
-- params: (none)
-- The documents a deduplicated copy keeps, in input order, as a table: a folder or a --lines file
-- copied to a table (--write-deduplicated out.parquet). Every document (the empty ones too) but
-- those the clusters' rule drops; `id` as the run named it (a relative path, a line number, an
-- --ids name), `text` as it was read.
select d.id, d.text
from documents as d
where not exists (select 1 from clusters as c where c.doc_id = d.doc_id and not c.is_survivor)
order by d.position
