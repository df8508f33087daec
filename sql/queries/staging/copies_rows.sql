-- query:  copies_rows
-- reads:  text_copies(doc_id, rep), temp.main.{{ table }}(doc_id)
-- params: (none)
-- The rows a batch's table would have for the copies of the texts the batch read
-- (copies_complete.sql), counted without making them: the shingles, which only the verification
-- reads, and only for the first document of each text (sql/06_verified.sql).
select count(*)
from text_copies as c
join temp.main.{{ table }} as t on t.doc_id = c.rep
