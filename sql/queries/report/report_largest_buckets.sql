-- query:  report_largest_buckets
-- reads:  band_hashes(doc_id, band, bucket), documents(doc_id, id, text, norm)
-- writes: (none: a SELECT for `dedup report`)
-- params: $top, $scan, $members, $max_chars
-- Boilerplate: the largest LSH buckets. A group of documents that shares one bucket usually
-- shares several bands, so the $scan largest buckets are grouped by their documents and the
-- $top largest groups are kept, each with its bands, its first $members ids and the texts of its
-- first two documents (cut to $max_chars) to show what they share.
with sizes as (
    select band, bucket, count(*) as size
    from band_hashes
    group by band, bucket
    having count(*) > 1
),
largest as (
    select band, bucket, size
    from sizes
    order by size desc, band, bucket
    limit $scan
),
bucket_members as (
    select l.band, l.size, list(h.doc_id order by h.doc_id) as doc_ids
    from largest as l
    join band_hashes as h on h.band = l.band and h.bucket = l.bucket
    group by l.band, l.bucket, l.size
),
-- Buckets whose first member has the same normalized text are one boilerplate (the same template
-- in band 3 with 4,919 copies and in band 7 with 4,921, two near copies more): shown once, as its
-- largest bucket with every band it filled (10 rows of "Add your description here" were one).
by_text as (
    select
        b.band,
        b.size,
        b.doc_ids,
        d.norm,
        row_number() over (partition by d.norm order by b.size desc, b.doc_ids) as rank
    from bucket_members as b
    join documents as d on d.doc_id = b.doc_ids[1]
),
groups as (
    select
        any_value(doc_ids) filter (where rank = 1) as doc_ids,
        max(size) as size,
        list(distinct band order by band) as bands
    from by_text
    group by norm
    order by size desc, doc_ids
    limit $top
),
sample as (
    select doc_ids, unnest(list_slice(doc_ids, 1, $members)) as doc_id
    from groups
),
named as (
    select s.doc_ids, list(d.id order by d.doc_id) as member_ids
    from sample as s
    join documents as d on d.doc_id = s.doc_id
    group by s.doc_ids
)
select
    g.size,
    g.bands,
    n.member_ids,
    left(da.text, $max_chars) as text_a,
    left(db.text, $max_chars) as text_b
from groups as g
join named as n on n.doc_ids = g.doc_ids
join documents as da on da.doc_id = g.doc_ids[1]
join documents as db on db.doc_id = g.doc_ids[2]
order by g.size desc, g.doc_ids
