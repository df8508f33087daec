-- query:  document_keys_places
-- reads:  document_keys(key)
-- params: (none)
-- --keep-by COLUMN=A,B,...: the places of the values listed that some row holds (a key is the
-- place of its cell's value in the list, the list's length for any other value or none).
select distinct cast(key as bigint) as place from document_keys where key is not null order by place
