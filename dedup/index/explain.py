"""Why two documents were or were not paired: shingles, Jaccard, band collisions, the deciding stage."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..bindings import parameter_values
from ..engines import Engine
from ..errors import DedupError, UsageError
from ..runner import recomputed
from ..settings import Sketch
from ..stages import shingle_text_fragments
from .clusters import kept_by
from .documents import doc_ids_of, index_sketch


@dataclass
class Explanation:
    id_a: str
    id_b: str
    shingles_a: int
    shingles_b: int
    shared: int
    jaccard: float
    estimate: float | None
    threshold: float
    bands: int
    rows: int
    collided_bands: list[int]
    probability_none: float  # P(no band collides | J = jaccard) = (1 - J^r)^b
    stage: str
    method: str = "lsh"
    shared_examples: list[str] = field(default_factory=list)
    only_a_examples: list[str] = field(default_factory=list)
    only_b_examples: list[str] = field(default_factory=list)
    max_shingle_df: str | None = None  # the index's --max-shingle-df
    boilerplate_shared: int = 0  # shingles both documents hold that it left out of their sets
    boilerplate_examples: list[tuple[str, int]] = field(default_factory=list)  # (shingle, distinct texts)

    def __str__(self) -> str:
        return format_explanation(self)

    @property
    def only_a(self) -> int:
        return self.shingles_a - self.shared

    @property
    def only_b(self) -> int:
        return self.shingles_b - self.shared


def explain_survivor(engine: Engine, doc_id: str) -> tuple[str, str | None]:
    """Why one document is kept or dropped, in words, and the id of the document kept in its place
    (None when it is kept): from the clusters table, by the rule that built it."""
    found = doc_ids_of(engine, [doc_id])
    if doc_id not in found:
        raise DedupError(f"no document with id {doc_id!r} in the index")
    if not engine.has_table("clusters"):
        raise DedupError("the index has no clusters: build them with `dedup clusters DB`")
    rows = engine.fetch_rows(engine.sql.query("explain_survivor", {"doc_id": found[doc_id]}))
    kept, survivor, jaccard, size, keep, resolve = rows[0]
    sketch = index_sketch(engine)
    built_by = kept_by(engine)
    rule = built_by.options() if built_by is not None else f"--keep {keep}, --resolve {resolve}"
    if kept:
        why = "no document kept before it is one of its pairs" if resolve == "verified" else "first of its cluster"
        return f"{doc_id}: kept ({why}; cluster of {size}; {rule})", None
    if jaccard is None:
        reason = f"the survivor of its cluster of {size}, which is no pair of it (Jaccard < {sketch.threshold:g})"
    else:
        reason = f"exact Jaccard {jaccard:.6f} >= {sketch.threshold:g}"
    return f"{doc_id}: dropped for {survivor} ({reason}; {rule})", str(survivor)


def explain_pair(engine: Engine, id_a: str, id_b: str, examples: int = 3) -> Explanation:
    sketch = index_sketch(engine)
    if id_a == id_b:
        raise UsageError("give two different ids")
    found = doc_ids_of(engine, [id_a, id_b])
    for given in (id_a, id_b):
        if given not in found:
            raise DedupError(f"no document with id {given!r} in the index")
    (id_a, doc_a), (id_b, doc_b) = sorted(((i, found[i]) for i in (id_a, id_b)), key=lambda item: item[1])
    values = {"doc_a": doc_a, "doc_b": doc_b}
    with recomputed(engine, sketch, ("explain_counts", "explain_signatures"), (doc_a, doc_b)):
        n_a, n_b, shared = engine.fetch_rows(engine.sql.query("explain_counts", values))[0]
        signature_rows = engine.fetch_rows(engine.sql.query("explain_signatures", values))
    union = n_a + n_b - shared
    jaccard = shared / union if union else 0.0
    estimate = None
    if len(signature_rows) == 2:
        estimate = sum(x == y for x, y in zip(*signature_rows, strict=True)) / sketch.num_perm
    collided = [row[0] for row in engine.fetch_rows(engine.sql.query("explain_collided", values))]
    banding = sketch.banding
    explanation = Explanation(
        id_a=id_a,
        id_b=id_b,
        shingles_a=n_a,
        shingles_b=n_b,
        shared=shared,
        jaccard=jaccard,
        estimate=estimate,
        threshold=sketch.threshold,
        bands=banding.bands,
        rows=banding.rows,
        collided_bands=collided,
        probability_none=1.0 - banding.probability(jaccard),
        stage=_stage(engine, doc_a, doc_b, n_a, n_b, sketch.threshold, collided, sketch.method, estimate),
        method=sketch.method,
        max_shingle_df=sketch.max_shingle_df,
    )
    _add_examples(engine, explanation, doc_a, doc_b, examples, sketch)
    return explanation


def _stage(
    engine: Engine,
    doc_a: int,
    doc_b: int,
    n_a: int,
    n_b: int,
    threshold: float,
    collided: list[int],
    method: str = "lsh",
    estimate: float | None = None,
) -> str:
    if not n_a or not n_b:
        return "never compared: a document without shingles (empty) is never paired"
    values = {"doc_a": doc_a, "doc_b": doc_b}
    in_pairs = engine.fetch_rows(engine.sql.query("explain_in_pairs", values))[0][0]
    if in_pairs:
        return f"kept: candidate, verified, in pairs (Jaccard >= {threshold})"
    verified = engine.fetch_rows(engine.sql.query("explain_verified", values))
    if verified:
        return f"dropped at verification: a candidate, but exact Jaccard {verified[0][0]:.6f} < {threshold}"
    if method == "exact":
        return f"dropped at candidates: --method exact's prefix filter proves Jaccard < {threshold}"
    if method == "signature":
        return f"dropped at candidates: --method signature's MinHash estimate {estimate} < {threshold}"
    if collided:
        return "not a candidate although bands collided: the index is out of date (add or run again)"
    return "dropped at candidates: no band collided, so the pair was never compared"


def _add_examples(
    engine: Engine,
    explanation: Explanation,
    doc_a: int,
    doc_b: int,
    examples: int,
    sketch: Sketch,
) -> None:
    if examples <= 0 and sketch.max_df is None:
        return
    values = {**parameter_values(sketch, engine.dialect), "doc_id_a": doc_a, "doc_id_b": doc_b}
    fragments = shingle_text_fragments(sketch.shingle_type, sketch.shingle_size)
    rows = engine.fetch_rows(engine.sql.query("shingle_texts", values, **fragments))
    texts: dict[int, dict[int, str]] = {doc_a: {}, doc_b: {}}
    for doc_id, fingerprint, shingle in rows:
        texts[doc_id][fingerprint] = shingle
    a, b = texts[doc_a], texts[doc_b]
    if sketch.max_df is not None:  # the texts hold every shingle; the sets, those the cap leaves
        both = [str(f) for f in sorted(a.keys() & b.keys())]
        left_out = engine.fetch_rows(engine.sql.query("explain_boilerplate", {"fingerprints": both}))
        explanation.boilerplate_shared = len(left_out)
        explanation.boilerplate_examples = [(a[f], df) for f, df in left_out[: max(examples, 0)]]
        for f, _ in left_out:
            del a[f], b[f]
    # In fingerprint order: a fixed, well-spread sample rather than the first lines of a text.
    explanation.shared_examples = [a[f] for f in sorted(a.keys() & b.keys())[:examples]]
    explanation.only_a_examples = [a[f] for f in sorted(a.keys() - b.keys())[:examples]]
    explanation.only_b_examples = [b[f] for f in sorted(b.keys() - a.keys())[:examples]]


def format_explanation(e: Explanation) -> str:
    estimate = "n/a" if e.estimate is None else f"{e.estimate:.6f}"
    if e.collided_bands:
        bands = f"{len(e.collided_bands)} of {e.bands} bands collided: {', '.join(map(str, e.collided_bands))}"
    else:
        bands = (
            f"no band of {e.bands} collided; at Jaccard {e.jaccard:.6f} that happens with probability "
            f"(1 - J^{e.rows})^{e.bands} = {e.probability_none:.6f}"
        )
    if e.method != "lsh":
        bands += f" (not used: the index was built with --method {e.method})"
    lines = [
        f"a: {e.id_a}  ({e.shingles_a} shingles)",
        f"b: {e.id_b}  ({e.shingles_b} shingles)",
        f"shared: {e.shared}  only in a: {e.only_a}  only in b: {e.only_b}",
        f"jaccard: {e.jaccard:.6f} exact, {estimate} estimated (equal MinHash values)",
        f"bands: {bands}",
        f"stage: {e.stage}",
    ]
    for title, shingles in (
        ("shared shingles", e.shared_examples),
        ("only in a", e.only_a_examples),
        ("only in b", e.only_b_examples),
    ):
        if shingles:
            lines.append(f"{title}: " + ", ".join(repr(s) for s in shingles))
    if e.max_shingle_df is not None:
        left_out = f"{e.boilerplate_shared} shingles both hold, left out of their sets"
        left_out += f" by --max-shingle-df {e.max_shingle_df}"
        shown = ", ".join(f"{shingle!r} ({df:,} texts)" for shingle, df in e.boilerplate_examples)
        lines.append(f"boilerplate: {left_out}" + (f": {shown}" if shown else ""))
    return "\n".join(lines)
