"""The corpus as files: each input a value of its kind (kinds.py: detected once, by the same rules
on both engines; read, stamped and copied back by its kind, and Spark's reader of it as data),
read into a table of documents (read.py, by the readers of folders.py, lines.py, tables.py and
columns.py; decoding.py for bytes as text, collected.py for what was read and skipped), and
written back without the dropped duplicates, in its own form (write.py, table_copy.py).

The rest of dedup enters through the names below, never a submodule (an import-linter contract
in pyproject.toml, run by tests/test_lint.py)."""

from .collected import duplicate_id
from .columns import nan_ids
from .csv_check import check_csv
from .decoding import BINARY_SKIPPED, BINARY_SNIFF_BYTES, UTF8_BOM, UTF16_BOMS, UTF16_SKIPPED, decode
from .folders import id_path, path_id
from .kinds import IN_MEMORY, Folder, Input, Listing, Table, check_column_options, input_kind
from .lines import STDIN, mac_lines_note, read_names, read_once
from .read import Read, check_distinct_inputs, read_by_python, read_inputs
from .spark_plans import FilesPlan, LinesPlan, SparkPlace, TablePlan, unlisted_reason
from .spool import digest_tables
from .stamp import FileStamp
from .tables import names_below
from .write import check_target, copied_input, is_table_copy, write_deduplicated_input, write_kept_documents

__all__ = [
    "FilesPlan",
    "LinesPlan",
    "SparkPlace",
    "TablePlan",
    "IN_MEMORY",
    "Folder",
    "Input",
    "Listing",
    "Table",
    "is_table_copy",
    "write_kept_documents",
    "input_kind",
    "names_below",
    "BINARY_SKIPPED",
    "BINARY_SNIFF_BYTES",
    "STDIN",
    "UTF8_BOM",
    "UTF16_BOMS",
    "UTF16_SKIPPED",
    "FileStamp",
    "Read",
    "check_column_options",
    "check_csv",
    "check_distinct_inputs",
    "check_target",
    "copied_input",
    "decode",
    "digest_tables",
    "duplicate_id",
    "id_path",
    "mac_lines_note",
    "nan_ids",
    "path_id",
    "read_by_python",
    "unlisted_reason",
    "read_inputs",
    "read_names",
    "read_once",
    "write_deduplicated_input",
]
