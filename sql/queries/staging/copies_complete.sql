-- query:  copies_complete
-- reads:  text_copies(doc_id, rep), temp.main.{{ table }}(doc_id, ...)
-- writes: temp.main.{{ table }}
-- params: (none)
-- The rows of a batch's table ({{ table }}: a quoted name from dedup's own list) for the copies
-- of the texts the batch read (text_copies.sql): each copy gets its text's first document's rows,
-- its own doc_id in place of that document's. A copy's shingle set is that document's, so these
-- are the rows the stage would have made from it.
insert into temp.main.{{ table }} by name
select t.* replace (c.doc_id as doc_id)
from text_copies as c
join temp.main.{{ table }} as t on t.doc_id = c.rep
