-- query:  report_largest_clusters
-- reads:  clusters(doc_id, id, cluster_id, cluster_size, is_survivor, survivor_doc_id),
--         pairs(doc_id_a, doc_id_b, jaccard, estimate),
--         documents(doc_id, id, text)
-- writes: (none: a SELECT for `dedup report`)
-- params: $top, $members, $max_chars
-- The $top largest clusters: size, how many of its documents are kept, the first $members ids
-- (survivors first), and one pair of the cluster to show side by side: its main survivor (the one
-- kept in the place of the most members; ties by doc_id) with its least similar neighbour (the
-- pair a reviewer most needs to see), or the least similar pair if it has no direct pair.
with largest as (
    select cluster_id, any_value(cluster_size) as size
    from clusters
    where cluster_size > 1
    group by cluster_id
    order by size desc, cluster_id
    limit $top
),
replaced as (
    select c.cluster_id, c.survivor_doc_id, count(*) as members
    from clusters as c
    join largest as l on l.cluster_id = c.cluster_id
    group by c.cluster_id, c.survivor_doc_id
),
survivors as (
    select r.cluster_id, r.survivor, k.id as survivor_id, r.kept
    from (
        select
            cluster_id,
            min_by(survivor_doc_id, (-members, survivor_doc_id)) as survivor,
            count(*) as kept
        from replaced
        group by cluster_id
    ) as r
    join clusters as k on k.doc_id = r.survivor
),
members as (
    select c.cluster_id, list_slice(list(c.id order by c.is_survivor desc, c.id), 1, $members) as member_ids
    from clusters as c
    join largest as l on l.cluster_id = c.cluster_id
    group by c.cluster_id
),
-- The pair shown: the least similar pair of the survivor, found among the survivors' own pairs
-- (a few per cluster, not the n(n-1)/2 of a cluster of copies), or else the least similar pair
-- of the cluster; Jaccard, then doc_ids, break ties.
survivor_pairs as (
    select s.cluster_id, p.doc_id_a, p.doc_id_b, p.jaccard, p.estimate
    from survivors as s
    join pairs as p on p.doc_id_a = s.survivor
    union all
    select s.cluster_id, p.doc_id_a, p.doc_id_b, p.jaccard, p.estimate
    from survivors as s
    join pairs as p on p.doc_id_b = s.survivor
),
alone as (  -- the members of the clusters whose survivor has no pair of its own
    select c.cluster_id, c.doc_id
    from clusters as c
    join largest as l on l.cluster_id = c.cluster_id
    where c.cluster_id not in (select cluster_id from survivor_pairs)
),
candidates as (
    select * from survivor_pairs
    union all
    select a.cluster_id, p.doc_id_a, p.doc_id_b, p.jaccard, p.estimate
    from alone as a
    join pairs as p on p.doc_id_a = a.doc_id
),
shown as (
    select
        cluster_id,
        min_by(
            {'doc_id_a': doc_id_a, 'doc_id_b': doc_id_b, 'jaccard': jaccard, 'estimate': estimate},
            (jaccard, doc_id_a, doc_id_b)
        ) as pick
    from candidates
    group by cluster_id
)
select
    l.cluster_id,
    l.size,
    s.kept,
    s.survivor_id,
    m.member_ids,
    p.pick.doc_id_a,
    p.pick.doc_id_b,
    da.id as id_a,
    db.id as id_b,
    p.pick.jaccard,
    p.pick.estimate,
    p.pick.doc_id_a = s.survivor as survivor_a,
    p.pick.doc_id_b = s.survivor as survivor_b,
    left(da.text, $max_chars) as text_a,
    left(db.text, $max_chars) as text_b,
    length(da.text) as length_a,
    length(db.text) as length_b
from largest as l
join survivors as s on s.cluster_id = l.cluster_id
join members as m on m.cluster_id = l.cluster_id
left join shown as p on p.cluster_id = l.cluster_id
left join documents as da on da.doc_id = p.pick.doc_id_a
left join documents as db on db.doc_id = p.pick.doc_id_b
order by l.size desc, l.cluster_id
