-- query:  clusters_dropped_positions
-- reads:  clusters(doc_id, is_survivor), documents(doc_id, position)
-- params: (none)
-- The input positions of the documents that --keep drops: the lines that a deduplicated copy of a
-- --lines file leaves out (a line's position is its number, whatever id --ids gave it).
select d.position from clusters as c join documents as d on d.doc_id = c.doc_id where not c.is_survivor
