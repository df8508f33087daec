"""dedup: find near-duplicate documents with MinHash LSH in SQL, verified by exact Jaccard.

>>> import dedup
>>> dedup.run(documents=["a cat sat on the mat", "a cat sat on the mat!"], threshold=0.5).num_rows
1

`dedup.run` takes paths or documents in memory; `dedup.Index` works on a kept database.
"""

from __future__ import annotations

# The one place of the version: pyproject.toml reads it from here (hatch's version source), so an
# import does not pay for importlib.metadata (55 ms, 7 % of a 100-document run).
__version__ = "0.1.0"

from .api import Index, run  # noqa: E402

__all__ = ["Index", "run", "__version__"]
