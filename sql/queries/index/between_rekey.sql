-- query:  between_rekey
-- reads:  copies(doc_id, rep), removed_doc_ids(doc_id), documents(doc_id, id)
-- writes: {{ table }}
-- params: (none)
-- `dedup remove` on a lean index, before the pairs of the removed documents are deleted: its pair
-- tables store the rows between distinct texts by their groups' representatives
-- (sql/fragments/between_rows.sql), so the rows of a representative removed from a group that keeps
-- members become those of the group's smallest doc_id left, the representative copies_regroup.sql
-- then gives the group, on the side {{ side }}; {{ assigned }} sets that doc_id (and for the pairs its
-- id). between_orient.sql then turns the rows whose ends crossed. Names from dedup's own list.
update {{ table }} as p
set {{ assigned }}
from (
    select s.rep, s.successor, d.id
    from (
        select rep, min(doc_id) as successor
        from copies
        where rep in (select doc_id from removed_doc_ids) and doc_id not in (select doc_id from removed_doc_ids)
        group by rep
    ) as s
    join documents as d on d.doc_id = s.successor
) as m
where p.{{ side }} = m.rep
