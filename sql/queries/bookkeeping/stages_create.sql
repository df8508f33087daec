-- query:  stages_create
-- writes: stages(stage, fingerprint, options, rows, finished_at)
-- params: (none)
-- The table of finished stages (dedup/records.py), made on first use: one row per stage whose
-- table is complete, with the fingerprint of the inputs, options and SQL that made it.
create table if not exists stages (
    stage varchar primary key, fingerprint varchar, options json, rows bigint, finished_at timestamptz
)
