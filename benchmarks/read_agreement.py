"""Random small inputs read by both engines' readers: the same documents, or refused.

    python benchmarks/read_agreement.py jsonl|lines|folder|dataset SEED COUNT [FOLDER]

Each file, JSON lines (quotes, escapes, lone surrogates, values of mixed types, NaN, a BOM, Latin-1
bytes, \\n / \\r\\n / \\r line ends, keys in other cases), a --lines file (text, line breaks,
BOMs, NULs, Latin-1 and invalid UTF-8 bytes) or a folder (files of those bytes under hidden,
non-UTF-8, spaced or nested names, empty and binary files, symlinks inside, outside, broken or to
folders, fifos, a stray .parquet or .csv file, a `_SUCCESS`) or a Parquet dataset folder (part
files with text and id columns of several Arrow types, NULLs, Latin-1 bytes, under nested, hive
`k=v`, `_` or `.` folders, beside a `_SUCCESS`, a stray text file, symlinks to parts, to folders,
outside or broken, fifos; sometimes a folder named *.parquet), is read by the DuckDB engine's reader
(dedup.corpus.read.read_by_python) and the Spark engine's (dedup.engines.spark.read.read_corpus, in
one local session); it prints every file the two do not read alike, then the counts: `same`, `both
refuse`, `refused/ok` (refused on DuckDB only), `ok/refused` (on Spark only), `skipped, said` (files
the Spark engine cannot read, a name not UTF-8 or starting with _, listed as skipped with that
reason: documented), `APART` (read into other documents, or skipped for other reasons: a defect).
"""

import os
import random
import sys
from pathlib import Path

from dedup.corpus.read import read_by_python
from dedup.engines.spark.engine import SMALL_LOCAL_CONF, SparkEngine, new_session
from dedup.engines.spark.read import read_corpus as spark_read
from dedup.errors import InputError, UsageError
from dedup.settings import Reading

kind = sys.argv[1]
seed = int(sys.argv[2])
n = int(sys.argv[3])
rng = random.Random(seed)
out = Path(sys.argv[4] if len(sys.argv) > 4 else f"/tmp/read-agreement-{kind}-{seed}")
lines = kind == "lines"
out.mkdir(parents=True, exist_ok=True)
(out / "outside.txt").write_bytes(b"outside the folder")

TEXTS = [
    '"raw	tab"',
    '"x\\\\ud800"',
    '"\\\\"',
    '"abc"',
    '"Hello world"',
    '""',
    '"caf\\u00e9"',
    '"\\ud83d\\ude00 x"',
    '"\\ud800"',
    '"a\\u0000b"',
    '"tab\\there"',
    "123",
    "1.5",
    "true",
    "null",
    '["a"]',
    '{"a":1}',
    "'single'",
    '"2024-01-01"',
    '"12:00:00"',
    "NaN",
    '"é direct"',
    '"line\\nbreak"',
    '"\\/slash"',
    '"x\\u2028y"',
    '"\\uDFFF"',
]
IDS = [
    "1",
    "2",
    '"a"',
    '"b"',
    "1.0",
    "-3",
    "9223372036854775807",
    "18446744073709551615",
    "1e3",
    "null",
    '"2024-01-01"',
    "007",
    '"007"',
    "true",
    "0",
    '"x"',
    "'q'",
    "NaN",
    "-0",
]
KEYS_T = ['"text"'] * 30 + ['"Text"', "'text'", "text"]
KEYS_I = ['"id"'] * 30 + ['"Id"']


def line():
    r = rng.random()
    if r < 0.03:
        return rng.choice(["", "   ", "[1,2]", '"str"', "{", '{"text":"a",}', "// c", '{"text":"a"} x', "1"])
    parts = []
    if rng.random() < 0.8:
        parts.append(f"{rng.choice(KEYS_I)}: {rng.choice(IDS)}")
    if rng.random() < 0.9:
        parts.append(f"{rng.choice(KEYS_T)}: {rng.choice(TEXTS)}")
    if rng.random() < 0.1:
        parts.append(f"{rng.choice(KEYS_T)}: {rng.choice(TEXTS)}")
    if rng.random() < 0.2:
        parts.append(f'"other": {rng.choice(TEXTS)}')
    rng.shuffle(parts)
    return "{" + ", ".join(parts) + "}"


PIECES = [
    b"abc",
    b"hello world",
    b" ",
    b"\t",
    b"\n",
    b"\n",
    b"\r\n",
    b"\r",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\xe9",
    b"\xc3\xa9",
    b"\xe2\x80\xa8",
    b"\x85",
    b"\xc2\x85",
    b"\x0b",
    b"\x0c",
    b"\x1c",
    b"",
    b"\xf0\x9f\x98\x80",
    b"\xed\xa0\x80",
]


def make_lines(i):
    p = out / f"f{i:04d}.txt"
    p.write_bytes(b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))))
    return p


NAMES = [
    "a.txt",
    "b",
    "c.md",
    ".hidden",
    "sp ace.txt",
    "caf\u00e9.txt",
    "UPPER.TXT",
    "_SUCCESS",
    "x.json",
    "emoji\U0001f600",
    "n\u0301o.txt",
    "d.log",
]


def make_folder(i):
    root = out / f"d{i:04d}"
    root.mkdir()
    folders = [root]
    for _ in range(rng.randint(0, 3)):
        sub = rng.choice(folders) / rng.choice(["sub", ".git", "deep", "z", "_tmp", "é"])
        sub.mkdir(exist_ok=True)
        folders.append(sub)
    made = []
    for _ in range(rng.randint(1, 7)):
        folder = rng.choice(folders)
        r = rng.random()
        if r < 0.06:
            name = os.fsdecode(b"bad\xff" + str(rng.randint(0, 9)).encode())
        else:
            name = rng.choice(NAMES)
        path = folder / name
        if path.exists() or path.is_symlink():
            continue
        r = rng.random()
        if r < 0.08 and made:
            path.symlink_to(rng.choice(made))  # a link inside the folder
        elif r < 0.12:
            path.symlink_to(out / "outside.txt")
        elif r < 0.15:
            path.symlink_to(out / "missing.txt")
        elif r < 0.18 and len(folders) > 1:
            path.symlink_to(rng.choice(folders[1:]), target_is_directory=True)
        elif r < 0.2:
            os.mkfifo(path)
        elif r < 0.24:
            path.write_bytes(b"PAR1" + bytes(rng.randint(0, 255) for _ in range(20)))
        elif r < 0.27:
            path.with_suffix(".csv").write_bytes(b"id,text\n1,abc\n")
            continue
        else:
            path.write_bytes(b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))))
            made.append(path)
    return root


TEXT_VALUES = ["abc", "hello world", "", None, "caf\u00e9", "\U0001f600 x", "a\x00b", "line\nbreak", "abc"]


def make_part(path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = rng.randint(0, 4)
    texts = [rng.choice(TEXT_VALUES) for _ in range(rows)]
    r = rng.random()
    if r < 0.55:
        text = pa.array(texts, pa.string())
    elif r < 0.65:
        text = pa.array(texts, pa.large_string())
    elif r < 0.75:
        text = pa.array(texts, pa.string()).dictionary_encode()
    elif r < 0.88:
        raw = [
            None if t is None else t.encode("latin-1", "replace") if rng.random() < 0.3 else t.encode() for t in texts
        ]
        text = pa.array(raw, pa.binary())
    elif r < 0.94:
        text = pa.nulls(rows)
    else:
        text = pa.array([rng.randint(0, 5) for _ in range(rows)], pa.int64())
    columns = {"text" if rng.random() < 0.95 else "Text": text}
    r = rng.random()
    if r < 0.3:
        columns["id"] = pa.array([f"id{rng.randint(0, 20)}" for _ in range(rows)])
    elif r < 0.5:
        columns["id"] = pa.array(
            [rng.randint(0, 20) for _ in range(rows)], rng.choice([pa.int64(), pa.int32(), pa.uint64()])
        )
    elif r < 0.53:
        columns["id"] = pa.array([rng.randint(0, 20) + 0.0 for _ in range(rows)])
    if rng.random() < 0.15:
        columns["k"] = pa.array([str(rng.randint(0, 2)) for _ in range(rows)])
    if rng.random() < 0.2:
        columns["other"] = pa.array([rng.random() for _ in range(rows)])
    names = list(columns)
    rng.shuffle(names)
    pq.write_table(pa.table({name: columns[name] for name in names}), path)


def make_dataset(i):
    root = out / (f"p{i:04d}.parquet" if rng.random() < 0.15 else f"p{i:04d}")
    root.mkdir()
    folders = [root]
    for _ in range(rng.randint(0, 3)):
        sub = rng.choice(folders) / rng.choice(["sub", "k=1", "k=2", "year=2024", "_tmp", ".hidden", "deep"])
        sub.mkdir(exist_ok=True)
        folders.append(sub)
    parts = []
    for j in range(rng.randint(1, 4)):
        name = rng.choice(
            [f"part-{j}.parquet", f"part-{j}.parquet", f"_p{j}.parquet", f".p{j}.parquet", f"P{j}.PARQUET"]
        )
        path = rng.choice(folders) / name
        if not path.exists():
            make_part(path)
            parts.append(path)
    for _ in range(rng.randint(0, 2)):
        folder = rng.choice(folders)
        r = rng.random()
        path = folder / rng.choice(["_SUCCESS", "link.parquet", "loop", "gone.parquet", "pipe", "notes.txt", "far"])
        if path.exists() or path.is_symlink():
            continue
        if path.name == "_SUCCESS":
            path.write_bytes(b"")
        elif path.name == "link.parquet" and parts:
            path.symlink_to(rng.choice(parts))
        elif path.name == "loop":
            path.symlink_to(root, target_is_directory=True)
        elif path.name == "gone.parquet":
            path.symlink_to(out / "missing.parquet")
        elif path.name == "pipe":
            os.mkfifo(path)
        elif path.name == "notes.txt" and r < 0.3:
            path.write_bytes(b"notes")
        elif path.name == "far":
            (out / "far").mkdir(exist_ok=True)
            if not (out / "far" / "f.parquet").exists():
                make_part(out / "far" / "f.parquet")
            path.symlink_to(out / "far", target_is_directory=True)
    return root


def make(i):
    lines = [line() for _ in range(rng.randint(1, 5))]
    eol = rng.choice(["\n", "\n", "\r\n", "\r"])
    data = eol.join(lines) + (eol if rng.random() < 0.7 else "")
    raw = data.encode("utf-8")
    if rng.random() < 0.1:
        raw = b"\xef\xbb\xbf" + raw
    if rng.random() < 0.08:
        raw = raw.replace(b"\xc3\xa9", b"\xe9")
    p = out / f"f{i:04d}.jsonl"
    p.write_bytes(raw)
    return p


def duck(p):
    try:
        r = read_by_python(Reading(inputs=[p], lines=lines))
        t = r.raw.sort_by("position")
        return (
            "ok",
            [(str(i), x) for i, x in zip(t["id"].to_pylist(), t["text"].to_pylist(), strict=True)],
            sorted(tuple(d.values()) for d in r.skipped.to_pylist()),
        )
    except (InputError, UsageError) as e:
        return ("refused", str(e).splitlines()[0])
    except Exception as e:
        return ("CRASH", f"{type(e).__name__}: {e}".splitlines()[0])


os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
session = new_session("local[2]", SMALL_LOCAL_CONF, app_name="fuzz")


def spark(p, k):
    try:
        eng = SparkEngine(session, out / f"w{k}")
        has_ids, notes = spark_read(eng, Reading(inputs=[p], lines=lines))
        rows = session.table("raw_documents").orderBy("position").collect()
        ids = [r["id"] for r in rows]
        if len(set(ids)) < len(ids):  # as the run checks it after reading (dedup.inputs.check_unique_ids)
            return ("refused", "duplicate document id")
        sk = session.table("raw_skipped").collect()
        return ("ok", [(str(r["id"]), r["text"]) for r in rows], sorted(tuple(r) for r in sk))
    except (InputError, UsageError) as e:
        return ("refused", str(e).splitlines()[0])
    except Exception as e:
        return ("CRASH", f"{type(e).__name__}: {e}".splitlines()[0][:300])


stats = {}
for i in range(n):
    makers = {"folder": make_folder, "dataset": make_dataset, "jsonl": make}
    p = make_lines(i) if lines else makers[kind](i)
    a, b = duck(p), spark(p, i)
    if a[0] == b[0] == "ok":
        said = {source for source, reason in b[2] if reason.startswith("not read by the Spark engine")}

        def under(name, said=said):
            return any(name == s or (s.endswith("/") and name.startswith(s)) for s in said)

        alike = [d for d in a[1] if not under(d[0])] == b[1]
        alike = alike and [x for x in a[2] if not under(x[0])] == [x for x in b[2] if x[0] not in said]
        key = "same" if a[1] == b[1] and a[2] == b[2] else "skipped, said" if alike else "APART"
    elif a[0] == b[0] == "refused":
        key = "both refuse"
    else:
        key = f"{a[0]}/{b[0]}"
    stats[key] = stats.get(key, 0) + 1
    if key not in ("same", "both refuse", "skipped, said"):
        shown = sorted(str(f.relative_to(p)) for f in p.rglob("*")) if p.is_dir() else p.read_bytes()[:300]
        print("==", key, p, repr(shown))
        print("   duck:", repr(a)[:400])
        print("   spark:", repr(b)[:400])
print(stats)
