-- stage:  signatures
-- reads:  shingles(doc_id, h)
-- writes: signatures(doc_id, n_shingles, mh_0 .. mh_{num_perm-1})
-- params: $a_0 .. $a_{num_perm-1}, $b_0 .. $b_{num_perm-1}
-- dialect: spark. Why it differs from sql/03_signatures.sql: a * h needs 64 unsigned bits, and
-- Spark's bigint is signed and raises on overflow in ANSI mode (Spark 4's default). This
-- statement runs with ANSI mode off (the line below, applied by dedup/engines/spark/engine.py while it
-- runs), where the product wraps modulo 2^64 like a Java long: its low 32 bits, the only ones
-- kept, are DuckDB's (dedup/sqltext.py, spark_minhash_columns). The earlier form (a split into
-- 16-bit halves so that no term reached 2^63, under ANSI mode) cost 2x the executor CPU of this
-- stage (medium workload, 28.5 s -> 14.3 s, same session, 0 rows differing).
-- spark-conf: spark.sql.ansi.enabled=false
select
    doc_id,
    count(*) as n_shingles,
    {{ minhash_columns }}
from shingles
group by doc_id
