-- query:  between_view_candidates
-- reads:  candidates_between(doc_id_a, doc_id_b, shared_bands), copies(doc_id, rep, shared_bands)
-- writes: {{ database }}.main.candidates   (a view)
-- params: (none)
-- Every candidate, as the stage made it: those stored between two distinct texts, for every member
-- of the one text's group and of the other's (they collide in the same bands), and every pair of two
-- members of one group, which collide as the group's shared_bands say (dedup.stages.Layout.stored).
-- The view's names are read in its own database.
create or replace view {{ database }}.main.candidates as
with
{{ copy_pairs }},
stored_rows as (
    select * from candidates_between
),
{{ across_groups }}
select member_a as doc_id_a, member_b as doc_id_b, shared_bands
from across
union all
select doc_id_a, doc_id_b, shared_bands
from copy_pairs
