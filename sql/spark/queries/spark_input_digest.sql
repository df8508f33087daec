-- query:  spark_input_digest
-- reads:  raw_documents(position, id, text, encoding), raw_skipped(source, reason)
-- params: (none)
-- dialect: spark only (the DuckDB engine digests the Arrow tables it read in Python).
-- Counts and an order-independent digest of every input document, computed by Spark where the
-- data is: the input part of every stage's resume fingerprint.
select
    (select count(*) from raw_documents) + (select count(*) from raw_skipped) as read,
    (select count(*) from raw_documents) as loaded,
    (select count_if(encoding = 'latin-1') from raw_documents) as latin1,
    (select sum(xxhash64(position, cast(id as string), text) & 4294967295) from raw_documents) as documents_digest,
    (select sum(xxhash64(source, reason) & 4294967295) from raw_skipped) as skipped_digest
