-- query:  index_counts
-- reads:  signatures, documents, shingles, candidates, pairs
-- params: $added
-- The counts recorded in runs after dedup add, as one JSON object.
select json_object(
    'added', $added,
    'processed', (select count(*) from signatures),
    'documents', (select count(*) from documents),
    'shingles', (select count(*) from shingles),
    'candidates', (select count(*) from candidates),
    'pairs', (select count(*) from pairs))
