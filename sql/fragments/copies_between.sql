-- fragment: copies_between
-- reads:    rep_pairs(rep_a, rep_b, shared_bands)   (a CTE of the statement)
-- params:   (none)
-- The candidates of a lean run that stores the pair tables between distinct texts (DuckDB's:
-- dedup.stages.Plan.verify_texts), from those of the representatives (sql/05_candidates.sql): the
-- pairs of representatives alone (rep_a < rep_b), the rows that the database stores of what
-- sql/fragments/copies_expanded.sql lists for every member of the two groups and within each group
-- (sql/fragments/between_rows.sql), which the view `candidates` lists from them and `copies`. On
-- 794,406 Debian package summaries (80,554 distinct texts): 145k rows made instead of 39.0M.
between_texts as (
    select rep_a as doc_id_a, rep_b as doc_id_b, shared_bands
    from rep_pairs
)
select doc_id_a, doc_id_b, shared_bands from between_texts
