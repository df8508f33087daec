-- query:  survivor_links
-- reads:  survivor_in(node, n_in, parent)
-- writes: survivor_links(node, ptr, odd)
-- params: (none)
-- The nodes with exactly one undecided earlier neighbour: each the negation of its parent. A chain
-- of them (a near-duplicate of the previous document, and of nothing kept before it) is decided at
-- once from its first node by pointer jumping: ptr walks to the chain's root, odd counts the
-- links on the way modulo 2 (odd = 0: as the root; 1: its opposite).
select node, parent as ptr, 1 as odd from survivor_in where n_in = 1
