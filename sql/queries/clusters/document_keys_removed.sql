-- query:  document_keys_removed
-- reads:  documents(position)
-- writes: document_keys(position, key)
-- params: (none)
-- dedup remove and add --replace: the keys of documents no longer indexed, deleted (a later add
-- may give their positions to other documents).
delete from document_keys where position not in (select position from documents)
