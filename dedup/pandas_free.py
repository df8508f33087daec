"""The `dedup` command runs without pandas, which it never uses.

Where pandas is installed, pyarrow imports it on the first Arrow value built from Python values
(`pa.array`, `pa.scalar`: it asks whether they are a pandas object), and every command builds
some (a run its documents' ids and positions). The import took 0.22 s of a 0.80 s run on the
Clough-Stevenson corpus (100 documents) and 0.2 s of 3.7 s on 2,000 documents of 20k characters
(benchmarks/results/results.md). `refuse()` makes `import pandas` fail in this process as it does
where pandas is not installed: pyarrow and DuckDB take it as optional and go on without it, with
the same results (a nanosecond time stamp is written as Arrow's text either way:
dedup.output._values).

Only the console command refuses it (`dedup.__main__`); the API leaves its caller's imports alone.
A Spark session allows it again before pyspark loads (`allow()`): pyspark's conversions may need it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class _Refused:
    """An import finder (sys.meta_path) that finds pandas nowhere; importlib.abc's base class is not
    needed, and took 5 ms to import."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == "pandas" or fullname.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {fullname!r} (refused by dedup)", name=fullname)
        return None


_REFUSED = _Refused()


def refuse() -> None:
    """From now on `import pandas` fails in this process, unless pandas is already imported."""
    if _REFUSED not in sys.meta_path:
        sys.meta_path.insert(0, _REFUSED)


def allow() -> None:
    """Undo refuse()."""
    if _REFUSED in sys.meta_path:
        sys.meta_path.remove(_REFUSED)
