-- query:  index_doc_ids
-- reads:  wanted_ids(id)   (an Arrow table of the ids asked for), documents(doc_id, id)
-- params: (none)
-- The doc_id of each id asked for that the index holds; ids are compared as text, so that a
-- line number can be typed.
select w.id, d.doc_id from wanted_ids as w join documents as d on d.id::varchar = w.id
