-- query:  stages_rows
-- reads:  stages(stage, rows)
-- params: $stage
-- The row count recorded for a finished stage.
select rows from stages where stage = $stage
