-- query:  info_table_blocks
-- reads:  pragma_storage_info()
-- params: $table
-- The blocks of the database file that hold one table's rows (`dedup info`): those of its
-- segments and those its compressed strings overflow to (additional_block_ids). A block that two
-- small tables share is counted for each.
select count(distinct block) as blocks
from (
    select block_id as block from pragma_storage_info($table) where block_id >= 0
    union all
    select unnest(additional_block_ids) from pragma_storage_info($table)
)
