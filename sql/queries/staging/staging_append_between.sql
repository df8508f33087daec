-- query:  staging_append_between
-- reads:  staging.{{ table }}, main.copies(doc_id, rep)
-- writes: main.{{ stored }}
-- params: (none)
-- `dedup add`: append a staged pair table's rows between groups of exact copies to the table that
-- stores them (between_keep.sql), the added documents' groups already in `copies` (add_copies.sql).
insert into main.{{ stored }} by name
select p.*
from staging.{{ table }} as p
left join main.copies as ca on ca.doc_id = p.doc_id_a
left join main.copies as cb on cb.doc_id = p.doc_id_b
where ca.rep is null or cb.rep is null or ca.rep <> cb.rep
