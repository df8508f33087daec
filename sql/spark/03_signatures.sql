-- stage:  signatures
-- reads:  shingles(doc_id, h)
-- writes: signatures(doc_id, n_shingles, mh_0 .. mh_{num_perm-1})
-- params: $a_0 .. $a_{num_perm-1}, $b_0 .. $b_{num_perm-1}
-- dialect: spark. Why it differs from sql/03_signatures.sql: a * h needs 64 unsigned bits, and
-- Spark's bigint is signed and raises on overflow in ANSI mode (Spark 4's default). Only the
-- low 32 bits of a * h + b are kept, so a is split into 16-bit halves inside the generated
-- columns (dedup/sqltext.py, spark_minhash_columns): h * a mod 2^32 =
-- h * (a & 0xFFFF) + ((h * (a >> 16)) & 0xFFFF) << 16, every term below 2^49.
select
    doc_id,
    count(*) as n_shingles,
    {{ minhash_columns }}
from shingles
group by doc_id
