-- query:  retained_rename
-- writes: temp.main.{{ table }}, temp.main.{{ batch }}
-- params: (none)
-- A batch's temporary table that the run holds whole (the signatures, whose MinHash values the
-- pairs stage reads: dedup.stages.Plan.held), kept under its batch's name {{ batch }}
-- (dedup.runner.held_batch) until the group's last batch, then gathered in one statement
-- (retained_gather.sql): appended batch by batch (retained_append.sql), the signatures' 130
-- columns cost 8.3 of 86 s on 1M documents of 200 characters, most of it where a batch ended a
-- row group; the renames nothing, the one gathering 1.4 s.
alter table temp.main.{{ table }} rename to {{ batch }}
