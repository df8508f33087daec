-- query:  survivor_nodes
-- reads:  survivor_ranks(doc_id, rep, rank)
-- writes: survivor_nodes(node, rank, best_doc)
-- params: (none)
-- One node per group of exact copies (named by its rep): its rank is its first member's, the
-- member kept if the node is (best_doc). Copies have one shingle set, so they are one node.
select rep as node, min(rank) as rank, min_by(doc_id, rank) as best_doc
from survivor_ranks
group by rep
