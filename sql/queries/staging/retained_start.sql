-- query:  retained_start
-- writes: temp.main.{{ retained }}
-- params: (none)
-- A run keeps the tables its database does not keep (dedup.stages.Layout: the shingles and the
-- MinHash values) as temporary tables of its connection until it ends, so that its verification
-- and its pairs read them rather than make them again (dedup/runner.py): the first batch's table
-- ({{ table }}) is renamed ({{ retained }}), each later batch's appended to it (retained_append.sql),
-- and after the last batch it takes the stage's name back. Both quoted names from dedup's own list.
alter table temp.main.{{ table }} rename to {{ retained }}
