-- stage:  band_hashes
-- reads:  signatures(doc_id, mh_*)
-- writes: band_hashes(doc_id, band, bucket)
-- params: $c_0 .. $c_{rows-1}
-- dialect: spark. Why it differs from sql/04_band_hashes.sql:
-- * two unnest()s in one SELECT zip in DuckDB, but two explode()s cross in Spark (b^2 rows, no
--   error): posexplode() gives the band number and its bucket together;
-- * mh * c needs all 64 bits of the product, which overflow Spark's signed bigint (an error in
--   ANSI mode): this statement runs with ANSI mode off (the line below, applied by
--   dedup/engines/spark/engine.py while it runs), where the product wraps modulo 2^64 like a Java long,
--   so the xor has the bits of DuckDB's ubigint, and the bucket (its low 48 bits) is the same
--   non-negative value (dedup/engines/spark/sqltext.py, bucket_expression).
-- spark-conf: spark.sql.ansi.enabled=false
select doc_id, band, bucket
from signatures
lateral view posexplode({{ bucket_list }}) as band, bucket
