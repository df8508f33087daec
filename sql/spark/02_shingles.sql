-- stage:  shingles
-- reads:  documents(doc_id, norm), all_shingles(doc_id, fingerprint), boilerplate(fingerprint)   (the last two: with --max-shingle-df)
-- writes: shingles(doc_id, fingerprint, h)
-- params: $k
-- spark-conf: spark.sql.ansi.enabled=false
-- dialect: spark. Why it differs from sql/02_shingles.sql:
-- * The fingerprints are signed bigints (Spark has no unsigned integers): the same 64 bits as
--   DuckDB's ubigint; h (the upper 32 bits) is taken with shiftrightunsigned so that the sign
--   bit does not spread. ANSI mode is off so that the character tokens' SplitMix64 products wrap
--   (sql/spark/fragments/tokens_char.sql).
-- * A shingle's fingerprint is the same cyclic polynomial of its token fingerprints (hash scheme
--   v4), built by transform() with shiftleft (wraps like a Java long) and shiftrightunsigned (no
--   sign spread). sequence(0, n - k) runs only when n > k (sequence(0, -2) would count down); a
--   shorter document's one shingle is the same rotate-and-xor folded over its tokens by aggregate().
-- * Distinct per document inside the row: array_distinct drops the repeated fingerprints. A
--   row-level distinct shuffled every shingle occurrence (9.6 M rows, 153 MiB on the
--   20,000-document medium workload) and cost ~2.5x the CPU.
with {{ kept_rows }}
select doc_id, fingerprint, shiftrightunsigned(fingerprint, 32) as h
from kept_rows
