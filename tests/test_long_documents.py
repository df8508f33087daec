"""Long documents take a second path through the shingles stage: their pieces, each a row
(sql/fragments/pieces_<type>.sql), where a document's tokens were one list that every lambda of the
stage copied (a 54 MB one-line document took 7.1 GB; one of 212 MB was killed at 23 GB). The two
paths give the same rows: checked here against each other and against the pure-Python reference,
with the length that makes a document long set low enough for every document to take either."""

from __future__ import annotations

import random

import duckdb
import pyarrow as pa
import pytest
import reference
from conftest import REPO
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import dedup.bindings
from dedup.cli import app
from dedup.engines.duckdb import DuckDBEngine
from dedup.settings import Sketch
from dedup.stages import compile_stages


def shingle_rows(texts: list[str], kind: str, k: int) -> list[tuple[int, int, int]]:
    """The shingles stage's rows (doc_id, fingerprint, h) of `texts` on DuckDB, doc_id i + 1 for text i."""
    sketch = Sketch(shingle_type=kind, shingle_size=k, threshold=0.5)
    with duckdb.connect() as con:
        engine = DuckDBEngine(con)
        ids = [f"{i:06d}" for i in range(len(texts))]  # doc_ids follow the ids' order
        con.register("raw_documents", pa.table({"position": list(range(len(texts))), "id": ids, "text": texts}))
        for stage, statement in compile_stages(sketch, "duckdb"):
            if stage.name in ("documents", "shingles"):
                engine.create_table(stage.name, statement)
        return sorted(con.sql("select doc_id, fingerprint, h from shingles").fetchall())


def expected_rows(texts: list[str], kind: str, k: int) -> list[tuple[int, int, int]]:
    rows = []
    for doc_id, text in enumerate(texts, start=1):
        for fingerprint in reference.fingerprints(reference.shingles(text, k, kind), kind):
            rows.append((doc_id, fingerprint, fingerprint >> 32))
    return sorted(rows)


# code points of 1 to 4 UTF-8 bytes, spaces, punctuation and a word character
ALPHABET = "ab é日_1-!\t\n😀"


def random_text(seed: int, length: int) -> str:
    """A text of `length` code points with no period, so that a shingle missed at a seam is not
    found elsewhere in the document."""
    rng = random.Random(seed)
    return "".join(rng.choice(ALPHABET) for _ in range(length))


# lengths about the pieces' runs of 1,000 code points (and over several runs of 100 words)
TEXTS = st.lists(
    st.one_of(
        st.text(alphabet=ALPHABET, max_size=30),
        st.builds(random_text, st.integers(0, 2**32), st.integers(990, 3010)),
        st.builds(random_text, st.integers(0, 2**32), st.sampled_from([999, 1000, 1001, 1008, 1009, 2000, 4100])),
    ),
    min_size=1,
    max_size=4,
)


@hypothesis_settings(max_examples=60, deadline=None)
@given(
    texts=TEXTS,
    kind=st.sampled_from(["char", "word"]),
    k=st.sampled_from([1, 2, 3, 5, 9]),
    long=st.sampled_from([0, 1, 20, 700]),
)
def test_the_pieces_give_a_long_document_the_shingles_of_the_reference(texts, kind, k, long):
    expected = expected_rows(texts, kind, k)
    before = dedup.bindings.LONG_DOCUMENT_BYTES
    try:
        dedup.bindings.LONG_DOCUMENT_BYTES = long
        pieces = shingle_rows(texts, kind, k)
    finally:
        dedup.bindings.LONG_DOCUMENT_BYTES = before
    assert pieces == expected
    assert shingle_rows(texts, kind, k) == expected  # and the first path, every document short


@pytest.mark.parametrize("kind,k", [("char", 9), ("word", 5), ("word", 1), ("word", 150), ("char", 1000)])
def test_a_document_of_several_runs_has_each_shingle_once(kind, k, monkeypatch):
    """Over runs of 1,000 code points or 100 words (k words for a larger k), across the runs'
    seams, a shingle repeated in many pieces is one row; a word of 2,500 characters is one token."""
    rng = random.Random(7)
    words = [f"w{rng.randrange(10**6)}" for _ in range(5200)] + ["x" * 2500, "end"]
    text = " ".join(words)
    texts = [text, text[:1500], "short one"]
    monkeypatch.setattr(dedup.bindings, "LONG_DOCUMENT_BYTES", 100)  # the first two are long
    assert shingle_rows(texts, kind, k) == expected_rows(texts, kind, k)


def test_a_run_with_every_document_long_gives_the_same_pairs(tmp_path, monkeypatch):
    """End to end on the bundled corpus: the pairs (their Jaccard's bits, their estimates) and the
    survivors of a run where every document takes the pieces' path are those of the first path."""
    corpus = REPO / "data" / "clough"
    runner = CliRunner()
    options = ["-t", "0.5", "-q", "--export"]
    first = runner.invoke(
        app, ["run", str(corpus), *options, f"survivors={tmp_path / 'a.txt'}", "-o", str(tmp_path / "a.csv")]
    )
    assert first.exit_code == 0, first.output
    monkeypatch.setattr(dedup.bindings, "LONG_DOCUMENT_BYTES", 0)
    pieces = runner.invoke(
        app, ["run", str(corpus), *options, f"survivors={tmp_path / 'b.txt'}", "-o", str(tmp_path / "b.csv")]
    )
    assert pieces.exit_code == 0, pieces.output
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.csv").read_text().count("\n") > 10
    assert (tmp_path / "a.txt").read_bytes() == (tmp_path / "b.txt").read_bytes()


@pytest.mark.slow
def test_a_long_one_line_document_runs_under_a_small_memory_limit(tmp_path):
    """An 8 MB one-line document stopped under --memory-limit 400MB with DuckDB's out-of-memory
    error (its tokens one list, copied by each lambda: a 212 MB one was killed at 23 GB); in
    pieces it runs, in a process of its own as a user starts it."""
    import subprocess
    import sys

    rng = random.Random(3)
    vocabulary = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 9))) for _ in range(20_000)]
    document = tmp_path / "one-line.txt"
    document.write_text(" ".join(rng.choices(vocabulary, k=1_300_000)))
    assert document.stat().st_size > 7_000_000
    command = [sys.executable, "-m", "dedup", "run", str(document), "-q", "--memory-limit", "400MB", "--threads", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr
