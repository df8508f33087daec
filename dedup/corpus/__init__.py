"""The corpus as files: reading inputs into a table of documents (read.py, with a reader per kind
of input: folders.py, lines.py, tables.py and columns.py; decoding.py for bytes as text,
collected.py for what was read and skipped), and writing the input back without the dropped
duplicates, in its own form (write.py)."""
