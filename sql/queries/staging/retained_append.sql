-- query:  retained_append
-- reads:  temp.main.{{ table }}
-- writes: temp.main.{{ retained }}
-- params: (none)
-- A later batch's rows of a table the run keeps until it ends (retained_start.sql).
insert into temp.main.{{ retained }} by name select * from temp.main.{{ table }}
