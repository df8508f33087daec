-- query:  copies_alone
-- reads:  (none: a DELETE of the table's own groups of one)
-- writes: copies(doc_id)
-- params: (none)
-- A group left with one document is no group: a document without copies has no row.
delete from copies where rep in (select rep from copies group by rep having count(*) = 1)
