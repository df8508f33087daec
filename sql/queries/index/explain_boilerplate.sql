-- query:  explain_boilerplate (the shingles two documents share that --max-shingle-df left out)
-- reads:  boilerplate(fingerprint, df)
-- params: $fingerprints
-- The rows of the boilerplate table among $fingerprints (the fingerprints, as text, of the
-- shingles two documents share before any is left out: sql/queries/index/shingle_texts.sql), with
-- their document frequency, the most frequent first.
select fingerprint, df
from boilerplate
where fingerprint in (select cast(unnest($fingerprints) as ubigint))
order by df desc, fingerprint
