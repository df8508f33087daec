-- query:  copies_remove
-- reads:  removed_doc_ids(doc_id)   (an Arrow table of the doc_ids to remove)
-- writes: copies(doc_id)
-- params: (none)
-- `dedup remove`: the removed documents leave their groups of exact copies (copies_regroup.sql
-- then gives each group its smallest doc_id left as representative).
delete from copies where doc_id in (select doc_id from removed_doc_ids)
