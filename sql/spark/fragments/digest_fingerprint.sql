-- fragment: digest_fingerprint (an expression of the hex MD5 digest `d`)
-- params:   (none)
-- dialect:  spark. The first 8 bytes of the MD5 digest `d` (md5()'s 32 hex digits) read
-- little-endian, as a bigint: DuckDB's (md5_number(x) & 2^64 - 1)::ubigint, the same 64 bits
-- read as a signed value. Spark has no md5_number() and no unsigned or 128-bit integers: the
-- first 16 hex digits are byte-swapped and read by one conv() to base -10 (a signed result).
-- Used inside a lambda over `d` by the shingle fragments (sql/spark/fragments/tokens_word.sql).
cast(conv(concat(
    substr(d, 15, 2), substr(d, 13, 2), substr(d, 11, 2), substr(d, 9, 2),
    substr(d, 7, 2), substr(d, 5, 2), substr(d, 3, 2), substr(d, 1, 2)
), 16, -10) as bigint)
