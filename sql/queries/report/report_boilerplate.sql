-- query:  report_boilerplate (the shingles --max-shingle-df left out, the most frequent first)
-- reads:  boilerplate(fingerprint, df), documents(doc_id, norm)
-- params: $k, $top, $scan
-- The $top rows of the boilerplate table by document frequency, each with its text where one of
-- the first $scan documents holds it (NULL otherwise): only fingerprints are stored, so the texts
-- are recomputed from those documents' tokens (sql/fragments/shingle_texts.sql). A
-- shingle left out is held by more texts than the cap, so the most frequent are found among few
-- documents; the scan bounds the report's cost on a large index.
with top as (
    select fingerprint, df from boilerplate order by df desc, fingerprint limit $top
),
chosen_documents as (
    select doc_id, norm from documents order by doc_id limit $scan
),
{{ shingle_texts }},
texts as (
    select fingerprint, min(shingle) as shingle from shingle_texts group by fingerprint
)
select t.df, t.fingerprint, x.shingle
from top as t
left join texts as x on x.fingerprint = t.fingerprint
order by t.df desc, t.fingerprint
