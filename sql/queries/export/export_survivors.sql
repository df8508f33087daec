-- query:  export_survivors
-- reads:  clusters(id, is_survivor, doc_id), documents(doc_id, position)
-- params: (none)
-- dedup export --what survivors: the deduplicated corpus: every document that is kept, in input order.
select c.id from clusters as c join documents as d on d.doc_id = c.doc_id
where c.is_survivor order by d.position
