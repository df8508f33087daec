"""dedup: find near-duplicate documents with MinHash LSH in SQL, verified by exact Jaccard.

>>> import dedup
>>> dedup.run(documents=["a cat sat on the mat", "a cat sat on the mat!"], threshold=0.5).num_rows
1

`dedup.run` takes paths or documents in memory; `dedup.Index` works on a kept database.
"""

from __future__ import annotations

from .api import Index, run
from .version import __version__

__all__ = ["Index", "run", "__version__"]
