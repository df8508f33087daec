-- stage:  documents
-- reads:  raw_documents(position, id, text)   (an Arrow table registered by dedup.corpus)
-- writes: documents(doc_id, id, position, text, norm)
-- params: (none)
-- scope:  documents
-- One row per input document. doc_id numbers documents in id order, so it does not depend on
-- the order files were listed or rows were stored (shuffled input gives the same doc_ids).
-- norm is the normalized text: lowercase (Unicode simple case mapping), every run of Unicode
-- whitespace (Python str.isspace) collapsed to one space, trimmed.
-- The regex replaces only the runs that are not already one space (two or more whitespace
-- characters, or one that is not ' '): the same text, but a text whose words are separated by
-- single spaces has almost nothing to replace (2.1 -> 0.9 CPU-s on the long workload's 39 MB).
-- doc_id is numbered over (id, position) alone and joined back to the texts: a window or a sort
-- over the whole rows (text and norm) must hold them all, which failed under --memory-limit 100MB
-- on 46 MB of text, and costs more without a limit. The table is not sorted by doc_id: every
-- reader selects by doc_id, and no result depends on the order rows are stored in.
with numbered as (
    select position, row_number() over (order by id) as doc_id
    from raw_documents
)
select numbered.doc_id, raw.id, raw.position, raw.text,
    trim(regexp_replace(
        lower(raw.text),
        '[\t\n\x{0B}\f\r\x{1C}-\x{1F} \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]{2,}|[\t\n\x{0B}\f\r\x{1C}-\x{1F}\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]',
        ' ',
        'g'
    )) as norm
from raw_documents as raw
join numbered on numbered.position = raw.position
