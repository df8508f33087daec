-- query:  dropped_documents
-- reads:  documents(id, position), raw_documents(id)
-- writes: (nothing: one row, the indexed documents that the run's inputs do not contain)
-- params: (none)
-- A run on a kept database rebuilds it from the run's inputs; documents the index holds (from an
-- earlier run or `dedup add`) but the inputs do not would be dropped. Ids compare as text, so a
-- line number and the same number as a string are one id.
select count(*) as dropped, list(d.id::varchar order by d.position)[1:3] as examples
from documents as d
where not exists (select 1 from raw_documents as r where r.id::varchar = d.id::varchar)
