"""Fast Similarity Sketching in DuckDB SQL against the classic 128-permutation aggregate, on the
shingles table a run left behind (`dedup run ... --db run.duckdb`).

The sketch measured (one function for every document): in round r < R, a shingle h goes to bin
((alpha_r h + beta_r) >> 32) & 127 with value (r << 32) | ((alpha_r h + beta_r) mod 2^32); a bin
keeps the least value that reaches it; a bin no round reached takes (R << 32) | min over the
document of the classic permutation (a_j h + b_j) mod 2^32. For every bin the least element of
A u B under this fixed function is unique, so two sets agree on the bin exactly when it lies in
A n B: every bin is a true min-hash. Round r only runs for the (document, bin) pairs still empty,
so long documents stop after round 0. The SQL result is checked against a Python computation of
the definition on a sample of documents before anything is timed.

    dedup run benchmarks/work/short-seed7.parquet --shingle-type char -k 5 --db /tmp/short.duckdb
    python benchmarks/sketch_rounds.py /tmp/short.duckdb /tmp/medium.duckdb /tmp/long.duckdb

The classic aggregate is the signatures stage's own (dedup.sqltext.minhash_columns, its
coefficients bound); the sketch's round coefficients are constants of this script (seeded),
written into its SQL text: it measures a formulation, it is not a stage.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import duckdb

from dedup.hashing import permutation_coefficients
from dedup.sqltext import minhash_columns

BINS = 128
MASK = 2**32 - 1


def coefficients(rounds: int, seed: int = 1) -> tuple[list[int], list[int], list[int], list[int]]:
    """The run's permutations (a_j, b_j) for the classic aggregate and the empty bins, and the
    rounds' (alpha_r, beta_r)."""
    a, b = (list(column) for column in zip(*permutation_coefficients(seed, BINS), strict=True))
    rng = random.Random(seed)
    alpha = [rng.randrange(1, 2**32, 2) for _ in range(rounds)]
    beta = [rng.randrange(0, 2**32) for _ in range(rounds)]
    return a, b, alpha, beta


def reference(hs: list[int], rounds: int, coef: tuple[list[int], ...]) -> list[int]:
    """The sketch of one document's distinct h values, by its definition."""
    a, b, alpha, beta = coef
    bins: list[int | None] = [None] * BINS
    for r in range(rounds):
        for h in hs:
            z = alpha[r] * h + beta[r]
            j, value = (z >> 32) & 127, (r << 32) | (z & MASK)
            if bins[j] is None or value < bins[j]:  # type: ignore[operator]
                bins[j] = value
    return [
        v if v is not None else (rounds << 32) | min((a[j] * h + b[j]) & MASK for h in hs) for j, v in enumerate(bins)
    ]


def statements(rounds: int, coef: tuple[list[int], ...]) -> list[str]:
    """The sketch as SQL over s(doc_id, h): (doc_id, bin, v) rows in f, then one row per document."""
    a, b, alpha, beta = coef

    def z(r: int) -> str:
        return f"(h * {alpha[r]}::ubigint + {beta[r]}::ubigint)"

    def bin_of(r: int) -> str:
        return f"(({z(r)} >> 32) & 127::ubigint)::utinyint"

    incomplete = "create or replace temp table inc as select doc_id from f group by doc_id having count(*) < 128"
    sql = [
        f"create or replace temp table f as select doc_id, {bin_of(0)} as bin, min({z(0)} & {MASK}::ubigint) as v"
        " from s group by all"
    ]
    for r in range(1, rounds):
        sql += [
            incomplete,
            f"""insert into f
            with filled as (select doc_id, bin from f semi join inc using (doc_id)),
            reached as (
                select s.doc_id, {bin_of(r)} as bin, {r << 32}::ubigint | ({z(r)} & {MASK}::ubigint) as v
                from s semi join inc using (doc_id)
            )
            select doc_id, bin, min(v) from reached anti join filled using (doc_id, bin) group by all""",
        ]
    a_list = "[" + ", ".join(f"{x}::ubigint" for x in a) + "]"
    b_list = "[" + ", ".join(f"{x}::ubigint" for x in b) + "]"
    sql += [
        incomplete,
        f"""insert into f
        with empty as (
            select i.doc_id, e.bin::utinyint as bin from inc as i cross join range(128) as e(bin)
            anti join f on f.doc_id = i.doc_id and f.bin = e.bin
        )
        select e.doc_id, e.bin,
            min({rounds << 32}::ubigint | ((s.h * {a_list}[e.bin + 1] + {b_list}[e.bin + 1]) & {MASK}::ubigint))
        from empty as e join s using (doc_id) group by all""",
        "create or replace temp table g as select doc_id, list(v order by bin) as l from f group by doc_id",
        "create or replace temp table sig as select doc_id, "
        + ", ".join(f"l[{j + 1}] as mh_{j}" for j in range(BINS))
        + " from g",
    ]
    return sql


def classic(coef: tuple[list[int], ...]) -> tuple[str, dict[str, int]]:
    """The signatures stage's aggregate (sql/03_signatures.sql), its coefficients bound."""
    a, b, _, _ = coef
    columns = minhash_columns(BINS)
    sql = f"create or replace temp table c as select doc_id, count(*) as n_shingles, {columns} from s group by doc_id"
    return sql, {**{f"a_{i}": x for i, x in enumerate(a)}, **{f"b_{i}": x for i, x in enumerate(b)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("databases", nargs="+")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    coef = coefficients(args.rounds)
    for path in args.databases:
        con = duckdb.connect(path, read_only=True)
        con.execute(f"set threads = {args.threads}")
        con.execute("create temp table s as select doc_id, h from shingles")
        n, rows = con.execute("select count(distinct doc_id), count(*) from s").fetchone()  # type: ignore[misc]
        for sql in statements(args.rounds, coef):
            con.execute(sql)
        sample = [
            d for (d,) in con.execute("select doc_id from g using sample reservoir(20 rows) repeatable (7)").fetchall()
        ]
        for doc_id in sample:
            hs = [h for (h,) in con.execute("select h from s where doc_id = $d", {"d": doc_id}).fetchall()]
            [(got,)] = con.execute("select l from g where doc_id = $d", {"d": doc_id}).fetchall()
            assert got == reference(hs, args.rounds, coef), f"doc {doc_id}: the SQL sketch is not the definition"
        times: dict[str, list[float]] = {"classic": [], "sketch": []}
        for _ in range(args.repeat):
            clock = time.perf_counter()
            con.execute(*classic(coef))
            times["classic"].append(time.perf_counter() - clock)
            clock = time.perf_counter()
            for sql in statements(args.rounds, coef):
                con.execute(sql)
            times["sketch"].append(time.perf_counter() - clock)
        [(fallback,)] = con.execute(
            "select count(distinct doc_id) from f where v >> 32 = $r", {"r": args.rounds}
        ).fetchall()
        c, s = statistics.median(times["classic"]), statistics.median(times["sketch"])
        print(
            f"{path}: {n:,} documents, {rows:,} shingles ({rows / n:,.0f} each): classic {c:.3f} s, "
            f"sketch {s:.3f} s ({s / c:.2f} x), {fallback:,} documents with a bin no round reached "
            f"(medians of {args.repeat}, {args.threads} threads; {len(sample)} checked against its definition)"
        )
        con.close()


if __name__ == "__main__":
    main()
