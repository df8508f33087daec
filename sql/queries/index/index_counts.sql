-- query:  index_counts
-- reads:  signatures(n_shingles), documents, candidates, pairs
-- params: $added
-- The counts recorded in runs after dedup add, as one JSON object. The shingles are counted by
-- each document's n_shingles (its distinct shingles: the rows of the shingles stage), which a lean
-- index keeps where it keeps no shingles table (dedup.stages.Layout).
select json_object(
    'added', $added,
    'processed', (select count(*) from signatures),
    'documents', (select count(*) from documents),
    'shingles', (select coalesce(sum(n_shingles), 0) from signatures),
    'candidates', (select count(*) from candidates),
    'pairs', (select count(*) from pairs))
