"""Benchmark corpora with planted near-duplicates at a spread of similarities around the threshold.

Each workload is a parquet table (id, text). Near-duplicates are edited copies of a base document:
some exact copies (retweets), and copies with a random share of words replaced, drawn so that
their character-5-gram Jaccard similarities spread over roughly 0.5-1.0 (most near 0.8).
"""

from __future__ import annotations

import itertools
import lzma
import random
import string
import sys
import sysconfig
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


@dataclass(frozen=True)
class Workload:
    name: str
    documents: int
    words: int  # words per base document (~6.5 characters each with the space)
    shingle_type: str
    shingle_size: int
    tweets: bool = False
    # Groups of identical texts (templates, boilerplate): the i-th of copy_groups has
    # max(2, largest_group // i) copies (Zipf), as a real corpus of 842k package summaries had
    # 36,796 groups, the largest 4,919 copies ("Add your description here").
    copy_groups: int = 0
    largest_group: int = 0


WORKLOADS = {
    "short": Workload("short", 60_000, 15, "char", 5, tweets=True),
    "medium": Workload("medium", 20_000, 77, "char", 5),
    "long": Workload("long", 2_000, 3_000, "word", 5),
    "scale-25k": Workload("scale-25k", 25_000, 30, "char", 5),
    "scale-50k": Workload("scale-50k", 50_000, 30, "char", 5),
    "scale-100k": Workload("scale-100k", 100_000, 30, "char", 5),
    "scale-200k": Workload("scale-200k", 200_000, 30, "char", 5),
    "scale-1m": Workload("scale-1m", 1_000_000, 30, "char", 5),
    "scale-10m": Workload("scale-10m", 10_000_000, 30, "char", 5),
    "copies-100k": Workload("copies-100k", 100_000, 12, "char", 5, copy_groups=4_000, largest_group=1_000),
    "copies-1m": Workload("copies-1m", 1_000_000, 12, "char", 5, copy_groups=36_796, largest_group=4_919),
    # review-length documents (230 words, as movie reviews average), word 5-shingles: the audit's target
    "reviews-100k": Workload("reviews-100k", 100_000, 230, "word", 5),
}


def _vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    # Zipf-like word frequencies: a few very common words, a long tail (like real text).
    return ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9))) for _ in range(size)]


def _edit(rng: random.Random, words: list[str], vocabulary: list[str], cumulative: list[float]) -> list[str]:
    """Replace a random share of the words: 0 (exact copy) with p=0.15, else 0-12% of them."""
    copy = list(words)
    if rng.random() < 0.15:
        return copy
    share = rng.uniform(0.0, 0.12)
    for _ in range(round(len(copy) * share)):
        copy[rng.randrange(len(copy))] = rng.choices(vocabulary, cum_weights=cumulative)[0]
    return copy


def generate(workload: Workload, seed: int = 7) -> pa.Table:
    rng = random.Random(seed)
    vocabulary = _vocabulary(rng)
    cumulative = list(itertools.accumulate(1.0 / (rank + 10) for rank in range(len(vocabulary))))
    users = [f"@{''.join(rng.choice(string.ascii_lowercase) for _ in range(8))}" for _ in range(2_000)]
    ids: list[str] = []
    texts: list[str] = []
    for group in range(1, workload.copy_groups + 1):
        text = " ".join(rng.choices(vocabulary, cum_weights=cumulative, k=max(3, int(rng.gauss(workload.words, 2)))))
        for _ in range(max(2, workload.largest_group // group)):
            ids.append(f"{workload.name}-{len(texts):07d}")
            texts.append(text)
    while len(texts) < workload.documents:
        n = max(3, int(rng.gauss(workload.words, workload.words * 0.15)))
        base = rng.choices(vocabulary, cum_weights=cumulative, k=n)
        link = "https://t.co/" + "".join(rng.choice(string.ascii_letters) for _ in range(10))
        copies = [base]
        # a third of the base documents get 1-3 near-duplicates
        if rng.random() < 0.33:
            copies += [_edit(rng, base, vocabulary, cumulative) for _ in range(rng.randint(1, 3))]
        for words in copies:
            if len(texts) >= workload.documents:
                break
            text = " ".join(words)
            if workload.tweets:
                # URL prefixes and mentions are shingles shared by many unrelated short texts
                text = f"{rng.choice(users)} {text} {link}" if rng.random() < 0.5 else f"{text} {link}"
                if words is not base and rng.random() < 0.3:
                    text = f"RT {text}"
            ids.append(f"{workload.name}-{len(texts):07d}")
            texts.append(text)
    order = list(range(len(texts)))
    rng.shuffle(order)  # duplicates are not neighbours in the file
    return pa.table({"id": [ids[i] for i in order], "text": [texts[i] for i in order]})


def write(workload: Workload, folder: Path, seed: int = 7) -> Path:
    """The workload's parquet file in folder, generated once and reused."""
    path = folder / f"{workload.name}-seed{seed}.parquet"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(generate(workload, seed), path)
    return path


# Real corpora found on every machine that runs the benchmark: (builder, shingle type, size).
def python_stdlib(folder: Path) -> Path:
    """A real corpus of long documents: the .py files of the running Python's standard library
    (site-packages left out), ids their sorted relative paths, texts decoded as UTF-8 (the few
    bytes that are not, replaced). Source files carry real near-duplicates (the code-page tables
    of encodings/, versions of the same test module); 1,790 files and 34 MB on CPython 3.11.7.
    The file records the Python version in its name: another version is another corpus."""
    root = Path(sysconfig.get_paths()["stdlib"])
    version = ".".join(str(part) for part in sys.version_info[:3])
    path = folder / f"python-stdlib-{version}.parquet"
    if not path.exists():
        files = sorted(
            (p for p in root.rglob("*.py") if p.is_file() and "site-packages" not in p.relative_to(root).parts),
            key=lambda p: p.relative_to(root).as_posix(),
        )
        ids = [p.relative_to(root).as_posix() for p in files]
        texts = [p.read_bytes().decode("utf-8", errors="replace") for p in files]
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"id": ids, "text": texts}), path)
    return path


def clough(folder: Path) -> Path:
    """The Clough-Stevenson short-answer corpus bundled in data/clough (100 answers, ~200-300 words
    each; the fixed cost of a run dominates it): ids the file names, texts as stored (UTF-8)."""
    root = Path(__file__).resolve().parent.parent / "data" / "clough"
    path = folder / "clough.parquet"
    if not path.exists():
        files = sorted(p for p in root.glob("*.txt") if p.is_file())
        ids = [p.name for p in files]
        texts = [p.read_bytes().decode("utf-8", errors="replace") for p in files]
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"id": ids, "text": texts}), path)
    return path


DEBIAN_RELEASES = ("bullseye", "bookworm", "trixie", "sid")
DEBIAN_ARCHITECTURES = ("amd64", "arm64", "i386")


def debian_summaries(folder: Path, mirror: str = "http://deb.debian.org/debian") -> Path:
    """A real corpus of short texts with many exact copies and near-duplicates: the summary (the
    first line of `Description:`) of every package of 12 `Packages` indices of Debian's main area,
    4 releases x 3 architectures, downloaded from `mirror` (~110 MB of .xz), ids
    `release-architecture/package/row`. Most packages stand in several indices, so most texts are
    copies: 794,406 summaries, 37.0 MB, 80,857 distinct texts (80,554 once normalized) in the indices
    of 2026-12-06 (sid and trixie change from day to day). Built once per folder."""
    path = folder / "debian-summaries-12.parquet"
    if not path.exists():
        ids: list[str] = []
        texts: list[str] = []
        for release in DEBIAN_RELEASES:
            for architecture in DEBIAN_ARCHITECTURES:
                url = f"{mirror}/dists/{release}/main/binary-{architecture}/Packages.xz"
                with urllib.request.urlopen(url) as response:
                    index = lzma.decompress(response.read()).decode("utf-8")
                package = ""
                for line in index.splitlines():
                    if line.startswith("Package: "):
                        package = line.removeprefix("Package: ").strip()
                    elif line.startswith("Description: "):
                        ids.append(f"{release}-{architecture}/{package}/{len(ids)}")
                        texts.append(line.removeprefix("Description: "))
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"id": ids, "text": texts}), path)
    return path


REAL_CORPORA = {"stdlib": (python_stdlib, "word", 5), "clough": (clough, "word", 5)}
