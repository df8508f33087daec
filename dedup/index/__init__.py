"""What works on the database a run leaves (its index): its documents, options and changes
(documents.py), clusters, exports, why a pair matched (explain.py), similar documents of one
document (similar.py), bucket sizes, and the user's own read-only SQL (explore.py)."""
