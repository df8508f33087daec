-- fragment: digest_fingerprint (an expression of the hex MD5 digest `d`)
-- params:   (none)
-- The first 8 bytes of the MD5 digest `d` (md5()'s 32 hex digits) read little-endian, as a
-- ubigint: (md5_number(x) & 2^64 - 1)::ubigint of the text x, as a word token's fingerprint is
-- (sql/fragments/tokens_word.sql), written as Spark's is (sql/spark/fragments/digest_fingerprint.sql)
-- so that the statements that take it are one file for both engines (sql/fragments/kept_capped.sql).
('0x' || substr(d, 15, 2) || substr(d, 13, 2) || substr(d, 11, 2) || substr(d, 9, 2)
    || substr(d, 7, 2) || substr(d, 5, 2) || substr(d, 3, 2) || substr(d, 1, 2))::ubigint
