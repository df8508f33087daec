-- fragment: tokens (word shingles: a token is a word)
-- reads:    {{ documents }}(doc_id, norm)
-- writes:   (doc_id, fps): one row per document with words, their fingerprints as an array
-- params:   (none)
-- dialect:  spark. Why it differs from sql/fragments/tokens_word.sql:
-- * Tokens: DuckDB's RE2 knows a newer Unicode than Java 17's regex (Unicode 13): 4,913 letters
--   and digits match [\p{L}\p{N}_] only in DuckDB. They are added to the class as 63 explicit
--   ranges, inside an intersection with their span U+0870-U+323AF, so that one comparison rules
--   them out below U+0870: Java's regex tests a class's members one after another, and as a flat
--   list of 66 members tokenizing cost 4.4x the CPU (long workload: 24.5 vs 5.6 JVM CPU-s for the
--   same tokens). tests/test_spark_identity.py checks the class against DuckDB's
--   on every code point.
-- * Fingerprints: md5() gives hex digits, read by sql/spark/fragments/digest_fingerprint.sql.
-- The document is not padded: the stage folds a document of at most k tokens into its one shingle.
with split as (
    select
        doc_id,
        regexp_extract_all(
            norm,
            r'[\p{L}\p{N}_[\x{870}-\x{323AF}&&[\x{870}-\x{887}\x{889}-\x{88E}\x{8B5}\x{8C8}-\x{8C9}\x{C5D}\x{CDD}\x{170D}\x{171F}\x{1B4C}\x{2C2F}\x{2C5F}\x{9FFD}-\x{9FFF}\x{A7C0}-\x{A7C1}\x{A7D0}-\x{A7D1}\x{A7D3}\x{A7D5}-\x{A7D9}\x{A7F2}-\x{A7F4}\x{10570}-\x{1057A}\x{1057C}-\x{1058A}\x{1058C}-\x{10592}\x{10594}-\x{10595}\x{10597}-\x{105A1}\x{105A3}-\x{105B1}\x{105B3}-\x{105B9}\x{105BB}-\x{105BC}\x{10780}-\x{10785}\x{10787}-\x{107B0}\x{107B2}-\x{107BA}\x{10F70}-\x{10F81}\x{11071}-\x{11072}\x{11075}\x{1123F}-\x{11240}\x{11740}-\x{11746}\x{11AB0}-\x{11ABF}\x{11F02}\x{11F04}-\x{11F10}\x{11F12}-\x{11F33}\x{11F50}-\x{11F59}\x{12F90}-\x{12FF0}\x{1342F}\x{13441}-\x{13446}\x{16A70}-\x{16ABE}\x{16AC0}-\x{16AC9}\x{1AFF0}-\x{1AFF3}\x{1AFF5}-\x{1AFFB}\x{1AFFD}-\x{1AFFE}\x{1B11F}-\x{1B122}\x{1B132}\x{1B155}\x{1D2C0}-\x{1D2D3}\x{1DF00}-\x{1DF1E}\x{1DF25}-\x{1DF2A}\x{1E030}-\x{1E06D}\x{1E290}-\x{1E2AD}\x{1E4D0}-\x{1E4EB}\x{1E4F0}-\x{1E4F9}\x{1E7E0}-\x{1E7E6}\x{1E7E8}-\x{1E7EB}\x{1E7ED}-\x{1E7EE}\x{1E7F0}-\x{1E7FE}\x{2A6DE}-\x{2A6DF}\x{2B735}-\x{2B739}\x{31350}-\x{323AF}]]]+',
            0
        ) as tokens
    from {{ documents }}
)
select doc_id, transform(transform(tokens, t -> md5(t)), d -> {{ digest_fingerprint }}) as fps
from split
where size(tokens) > 0
