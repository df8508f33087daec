-- query:  stages_insert
-- writes: stages(stage, fingerprint, options, rows, finished_at)
-- params: $stage, $fingerprint, $options, $rows
-- Mark a stage finished; written in the same transaction as the stage's table.
insert into stages values ($stage, $fingerprint, $options, $rows, now())
