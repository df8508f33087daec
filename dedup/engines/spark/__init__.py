"""The Spark engine: the same sql/ stages (sql/spark/ where Spark's semantics differ) on a
SparkSession, with the stage tables as Parquet under a work folder.

- engine.py: `SparkEngine` (the Engine protocol on a session) and `spark_engine` (a run's session
  and work folder);
- read.py: a run's inputs read by Spark's own readers where the data is (nothing funnels through
  the driver), as `raw_documents` and `raw_skipped`;
- markers.py: the finished stages of a work folder (Spark's bookkeeping; DuckDB's is dedup.records);

Nothing here imports pyspark at import time: a DuckDB run never loads it.
"""
