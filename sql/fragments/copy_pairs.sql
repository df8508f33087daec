-- fragment: copy_pairs
-- reads:    copies(doc_id, rep, shared_bands)
-- params:   (none)
-- Two CTEs of the views of a lean database's pair tables (sql/queries/staging/between_view_*.sql):
-- copy_pairs, every pair of two members of one group of exact copies (doc_id_a < doc_id_b) with the
-- group's shared_bands, joined from `members`. `members` is a materialized CTE, not `copies` joined
-- with itself: DuckDB's common_subplan optimizer gave wrong rows for a query that read such a view
-- twice (`select doc_id_a from pairs union all select doc_id_b from pairs` listed doc_id_a twice;
-- 2.0.1 and 1.5.6, duckdb/duckdb#25819), and users read these views with their own DuckDB. A list
-- of each group's members paired by position avoided it too, but copied the list into every pair:
-- 5.5 GB for 100k documents in groups of 1,000.
members as materialized (
    select doc_id, rep, shared_bands from copies
),
copy_pairs as (
    select a.doc_id as doc_id_a, b.doc_id as doc_id_b, a.shared_bands
    from members as a
    join members as b on b.rep = a.rep and a.doc_id < b.doc_id
)
