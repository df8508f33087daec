"""The corpus as files: reading inputs into a table of documents (read.py), and writing the input
back without the dropped duplicates, in its own form (write.py)."""
