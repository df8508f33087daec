-- query:  retained_release
-- writes: temp.main.{{ table }}, dedup_retained.main.{{ table }}
-- params: (none)
-- Release a table the run holds (retained_start.sql) once no later stage and no query reads it
-- (dedup.runner._release: the shingles once the verified stage has read them, unless --audit
-- reads them after the stages; those before --max-shingle-df's cap, once the shingles stage has
-- kept those under it; the signatures once the pairs stage has read them): its view by the
-- stage's name (retained_view.sql), then its rows.
drop view temp.main.{{ table }};
drop table dedup_retained.main.{{ table }}
