-- query:  document_keys_upgrade
-- writes: document_keys(key_low)
-- params: (none)
-- An index whose --keep-by keys an earlier dedup kept (0.1.0 before 2026-11-29) has no low parts
-- (dedup.keep_by.split_keys): its keys were floats alone, so their low parts are 0. Opened to be
-- changed, it gets the column; nothing else reads it first.
alter table if exists document_keys add column if not exists key_low bigint default 0
