-- query:  spark_input_digest
-- reads:  raw_documents(position, id, text, encoding), raw_skipped(source, reason)
-- params: (none)
-- dialect: spark only (the DuckDB engine digests the Arrow tables it read in Python).
-- Counts and an order-independent digest of every input document, computed by Spark where the
-- data is: the input part of every stage's resume fingerprint. One aggregate per relation, so
-- the texts are read once.
with documents as (
    select
        count(*) as loaded,
        count_if(encoding = 'latin-1') as latin1,
        sum(xxhash64(position, cast(id as string), text) & 4294967295) as documents_digest
    from raw_documents
),
skipped as (
    select count(*) as skipped, sum(xxhash64(source, reason) & 4294967295) as skipped_digest
    from raw_skipped
)
select
    d.loaded + s.skipped as read,
    d.loaded,
    d.latin1,
    d.documents_digest,
    s.skipped_digest
from documents as d
cross join skipped as s
