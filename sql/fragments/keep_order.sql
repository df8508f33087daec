-- fragment: keep_order
-- reads:    d: documents(doc_id, id, position, text), k: survivor_keys(position, key, key_low)   (aliases of the statement)
-- params:   $keep
-- The order in which both survivor rules walk documents (sql/queries/clusters/survivor_ranks.sql,
-- cluster_survivors_components.sql), written once: the --keep-by key first (no key last; the
-- 11 bits below a large integer's key next), then the --keep rule, one line each (dedup.choices.Keep
-- names them; the lines of the other rules are null, so they tie and only $keep's counts), ties by
-- input position. A new rule is a Keep member and a line here.
k.key nulls last,
k.key_low,
if($keep = 'first', d.position, null),
if($keep = 'min-id', d.id, null),
if($keep = 'longest', -length(d.text), null),
if($keep = 'shortest', length(d.text), null),
d.position
