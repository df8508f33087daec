from __future__ import annotations

import os
import sys
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, settings

from dedup.engines.spark.engine import SMALL_LOCAL_CONF

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")

REPO = Path(__file__).resolve().parent.parent
# Small real corpora with published answers (R textreuse's legal and tract texts, the Clough &
# Stevenson plagiarism corpus as a table), shipped with the tests: see tests/corpora/*/README.md
SHARED = REPO / "tests" / "corpora"

TINY = {
    "original.txt": "The quick brown fox jumps over the lazy dog near the river bank.",
    "copy.txt": "The quick brown fox jumps over the lazy dog near the river bank.",
    "near.txt": "The quick brown fox jumped over the lazy dog near the river bank!",
    "other.txt": "Completely unrelated words about databases and query planners.",
    "empty.txt": "",
    "unicode.txt": "Größe und Maß: ÉTÉ à Paris — naïve café.",
}


@pytest.fixture
def tiny_corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in TINY.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def con(tmp_path: Path):
    connection = duckdb.connect(str(tmp_path / "test.duckdb"))
    yield connection
    connection.close()


@pytest.fixture
def shared_corpora() -> Path:
    assert SHARED.is_dir(), "tests/corpora ships with the repository"
    return SHARED


# Spark tests share one local SparkSession (a cold start costs 10-40 s). They never skip: CI
# installs pyspark with the test extra, and a missing Java is a failure with dedup's own message.
# Whole-stage code generation is off here (see SMALL_LOCAL_CONF).
SPARK_TEST_CONF = SMALL_LOCAL_CONF


@pytest.fixture(scope="session")
def spark():
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from dedup.engines.spark.engine import new_session

    session = new_session("local[2]", SPARK_TEST_CONF, app_name="dedup-tests")
    yield session
    session.stop()
