-- query:  clusters
-- reads:  cluster_labels(doc_id, label), documents(doc_id, id, position, text)
-- writes: clusters(doc_id, id, cluster_id, cluster_size, is_survivor, keep)
-- params: $keep
-- One row per document: its connected component (cluster_id = smallest doc_id in it), the size
-- of the component, and whether it is the one document kept. The survivor is the first document
-- of the component by the --keep rule ($keep: first = input order, min-id = smallest id,
-- longest / shortest = text length in code points), ties broken by id, so the choice is
-- deterministic. The keys of the other rules are null, so they tie and only $keep's key counts.
-- `keep` records the rule, so that dedup add and remove re-rank only the clusters they change by it.
with ranked as (
    select
        d.doc_id,
        d.id,
        l.label as cluster_id,
        count(*) over (partition by l.label) as cluster_size,
        row_number() over (partition by l.label order by
                if($keep = 'first', d.position, null),
                if($keep = 'longest', -length(d.text), null),
                if($keep = 'shortest', length(d.text), null),
                d.id
        ) as rank
    from documents as d
    join cluster_labels as l on l.doc_id = d.doc_id
)
select doc_id, id, cluster_id, cluster_size, rank = 1 as is_survivor, $keep as keep
from ranked
order by doc_id
