-- query:  few_word_documents
-- reads:  signatures(doc_id, n_shingles), documents(doc_id, norm)
-- params: $shingle_size, $chars_per_word
-- Word shingles: how many documents of at most $shingle_size shingles (at most 2k - 1 words) have
-- more than $chars_per_word characters per space-separated run. Text written without spaces
-- between words (Chinese, Japanese, Thai) is one \w+ word per run of letters between punctuation:
-- a Japanese paragraph of two sentences is a word or four, one shingle, and pairs with nothing;
-- English has about 6 characters a word. The signatures are filtered first, so only the texts of
-- documents with few shingles are read: the test on the text is the count's filter, which is not
-- pushed into the scan of every document (0.5 s on 100k reviews, none of them with few shingles,
-- as a WHERE; 5 ms as a filter; 14 ms on 63k Debian package descriptions, 56k of them short).
select count(*) filter (
    where length(d.norm) >= $chars_per_word
        and length(d.norm) > $chars_per_word * (length(d.norm) - length(replace(d.norm, ' ', '')) + 1)
)
from (select doc_id from signatures where n_shingles <= $shingle_size) as s
join documents as d on d.doc_id = s.doc_id
