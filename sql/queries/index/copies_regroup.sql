-- query:  copies_regroup
-- reads:  copies(doc_id, rep)
-- writes: copies(rep)
-- params: (none)
-- After documents left their groups (copies_remove.sql): a group whose representative left takes
-- its smallest doc_id left, as sql/04_copies.sql would (copies_alone.sql then drops a group of one).
update copies as c
set rep = g.new_rep
from (select rep, min(doc_id) as new_rep from copies group by rep) as g
where c.rep = g.rep and g.new_rep <> g.rep
