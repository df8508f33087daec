-- query:  between_view_candidates
-- reads:  candidates_between(doc_id_a, doc_id_b, shared_bands), copies(doc_id, rep, shared_bands)
-- writes: {{ database }}.main.candidates   (a view)
-- params: (none)
-- Every candidate, as the stage made it: those stored between groups of exact copies, and every
-- pair of two members of one group, which collide as the group's shared_bands say
-- (dedup.stages.Layout.stored). The view's names are read in its own database.
create or replace view {{ database }}.main.candidates as
with
{{ copy_pairs }}
select doc_id_a, doc_id_b, shared_bands
from candidates_between
union all
select doc_id_a, doc_id_b, shared_bands
from copy_pairs
