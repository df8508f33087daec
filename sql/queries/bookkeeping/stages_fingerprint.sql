-- query:  stages_fingerprint
-- reads:  stages(stage, fingerprint)
-- params: $stage
-- The fingerprint a finished stage was recorded with (no row if it never finished).
select fingerprint from stages where stage = $stage
