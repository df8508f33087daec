-- query:  text_copies
-- reads:  main.documents(doc_id, norm)
-- writes: temp.main.text_copies
-- params: (none)
-- The documents of a lean run whose normalized text a document with a smaller doc_id has: one row
-- each, with that text's first document, rep (dedup.stages.Plan.distinct_texts). The run's
-- per-document stages read the other documents alone (batch_distinct_texts.sql) and give each of
-- these the rows of its text's first document (copies_complete.sql): exact copies have the same
-- shingles, so the same MinHash values and band hashes. On 1M generated documents of ~200
-- characters, 108,628 documents are such copies; this window over the normalized texts took
-- 0.29 s, where shingling and signing them took ~5 s of the run.
create or replace temp table text_copies as
select doc_id, rep
from (select doc_id, min(doc_id) over (partition by norm) as rep from main.documents)
where doc_id <> rep
