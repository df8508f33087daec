-- query:  index_counts
-- reads:  signatures(doc_id), documents(doc_id), shingles(doc_id), candidates(doc_id_a), pairs(doc_id_a)
-- params: $added
-- The counts recorded in runs after dedup add, as one JSON object.
select json_object(
    'added', $added,
    'processed', (select count(*) from signatures),
    'documents', (select count(*) from documents),
    'shingles', (select count(*) from shingles),
    'candidates', (select count(*) from candidates),
    'pairs', (select count(*) from pairs))
