"""LSH bucket sizes: large buckets are shared boilerplate (headers, licences, templates)."""

from __future__ import annotations

import pyarrow as pa

from ..engines import Engine


def bucket_sizes(engine: Engine) -> pa.Table:
    """Per band: buckets, how many hold one document or several, the largest and the mean size."""
    return engine.fetch_arrow(engine.sql.query("bucket_sizes"))


def largest_buckets(engine: Engine, top: int = 10, samples: int = 3) -> pa.Table:
    """The `top` largest buckets holding two documents or more, with the first `samples` ids of each."""
    values = {"top": max(top, 0), "samples": max(samples, 0)}
    return engine.fetch_arrow(engine.sql.query("largest_buckets", values))
