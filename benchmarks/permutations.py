"""MinHash permutation families side by side: time of the signatures stage and estimate quality.

Runs `dedup run --method exact` once on a workload (its shingles table and its exact pairs are
the ground truth), then for each family and seed builds the 128-column signatures table with the
same SQL shape as sql/03_signatures.sql and reports, over the exact pairs (J >= threshold):

- sig s:      seconds to build the signatures table (median over the seeds);
- bias, rmse: of the MinHash estimate (share of equal values) minus the exact Jaccard;
- recall:     share of exact pairs that share at least one band (default banding);
- candidates: distinct pairs sharing a band (the verification work);
- rand bias:  estimate minus Jaccard on random pairs (mostly J < 0.2).

    python benchmarks/permutations.py short --seeds 1 2 3 4

Families: `mod-p` is v1, `(a*h + b) mod (2^32 - 5)`; `mod-2^32` is v2 (the default since),
`(a*h + b) & (2^32 - 1)` with odd a; `xor` is `h xor c`, a one-operation baseline.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from workloads import WORKLOADS, write  # noqa: E402

from dedup.hashing import _md5_u64, permutation_coefficients  # noqa: E402
from dedup.params import choose_banding  # noqa: E402
from dedup.sqlfiles import used_parameters  # noqa: E402
from dedup.sqltext import minhash_columns  # noqa: E402

PRIME = 2**32 - 5
MASK = 2**32 - 1
NUM_PERM = 128
Columns = Callable[[], str]
Coefficients = Callable[[int], list[tuple[int, int]]]


def _alternative(expression: str, make_a: Callable[[int], int], modulus: int) -> tuple[Columns, Coefficients]:
    """A family that dedup does not ship: its column expression and its coefficient derivation."""

    def columns() -> str:
        return ",\n    ".join(f"min({expression.format(i=i)})::uinteger as mh_{i}" for i in range(NUM_PERM))

    def coefficients(seed: int) -> list[tuple[int, int]]:
        return [
            (make_a(_md5_u64(f"dedup:{seed}:a:{i}")), _md5_u64(f"dedup:{seed}:b:{i}") % modulus)
            for i in range(NUM_PERM)
        ]

    return columns, coefficients


FAMILIES: dict[str, tuple[Columns, Coefficients]] = {
    "mod-p": _alternative(
        "(h * $a_{i}::ubigint + $b_{i}::ubigint) % $prime::ubigint", lambda a: 1 + a % (PRIME - 1), PRIME
    ),
    # v2 is measured with the SQL and coefficients dedup itself runs
    "mod-2^32": (lambda: minhash_columns(NUM_PERM), lambda seed: permutation_coefficients(seed, NUM_PERM)),
    "xor": _alternative("xor(h::ubigint, $a_{i}::ubigint)", lambda a: a & MASK, MASK + 1),
}


def signatures_sql(family: str) -> str:
    columns = FAMILIES[family][0]()
    return (
        f"create or replace table family_signatures as\nselect doc_id,\n    {columns}\nfrom shingles\ngroup by doc_id"
    )


def parameters(family: str, seed: int, sql: str) -> dict[str, int]:
    """The values the family's SQL binds: its a_i and b_i (and the prime of mod-p)."""
    values = {"prime": PRIME}
    for i, (a, b) in enumerate(FAMILIES[family][1](seed)):
        values[f"a_{i}"], values[f"b_{i}"] = a, b
    return {name: values[name] for name in used_parameters(sql)}


def quality(con: duckdb.DuckDBPyConnection, bands: int, rows: int) -> dict[str, float]:
    equal = " + ".join(f"(x.mh_{i} = y.mh_{i})::integer" for i in range(NUM_PERM))
    band_equal = " or ".join(
        "(" + " and ".join(f"x.mh_{b * rows + r} = y.mh_{b * rows + r}" for r in range(rows)) + ")"
        for b in range(bands)
    )
    bias, rmse, recall = con.execute(
        f"""
        select avg(e - j), sqrt(avg((e - j) ^ 2)), avg(caught::integer)
        from (
            select ({equal}) / {NUM_PERM} as e, t.jaccard as j, ({band_equal}) as caught
            from truth as t
            join family_signatures as x on x.doc_id = t.doc_id_a
            join family_signatures as y on y.doc_id = t.doc_id_b
        )
        """
    ).fetchall()[0]
    (random_bias,) = con.execute(
        f"""
        select avg(({equal}) / {NUM_PERM} - t.jaccard)
        from random_pairs as t
        join family_signatures as x on x.doc_id = t.doc_id_a
        join family_signatures as y on y.doc_id = t.doc_id_b
        """
    ).fetchall()[0]
    buckets = ", ".join(
        "struct_pack(" + ", ".join(f"m{r} := mh_{b * rows + r}" for r in range(rows)) + f", band := {b})"
        for b in range(bands)
    )
    (candidates,) = con.execute(
        f"""
        with keyed as (select doc_id, unnest([{buckets}]) as bucket from family_signatures)
        select count(*) from (
            select distinct x.doc_id, y.doc_id
            from keyed as x join keyed as y on x.bucket = y.bucket and x.doc_id < y.doc_id
        )
        """
    ).fetchall()[0]
    return {"bias": bias, "rmse": rmse, "recall": recall, "random_bias": random_bias, "candidates": candidates}


def prepare(source: Path, work: Path, shingle_type: str, k: int, threshold: float, threads: int) -> Path:
    db = work / f"{source.stem}-permutations.duckdb"
    if not db.exists():
        dedup = str(Path(sys.executable).with_name("dedup"))
        command = [dedup, "run", str(source), "--method", "exact", "-t", str(threshold), "--shingle-type",
                   shingle_type, "-k", str(k), "--threads", str(threads), "--db", str(db), "-q",
                   "-o", str(work / f"{source.stem}-permutations.parquet")]  # fmt: skip
        subprocess.run(command, check=True)
    with duckdb.connect(str(db)) as con:
        con.execute(
            "create or replace table truth as select doc_id_a, doc_id_b, jaccard from verified where jaccard >= $t",
            {"t": threshold},
        ).fetchall()
        con.execute(
            """
            create or replace table random_pairs as
            with n as (select count(*) as n from shingle_counts),
            drawn as (
                select distinct least(a, b) as doc_id_a, greatest(a, b) as doc_id_b
                from (select md5_number(i || 'a') % n.n as a, md5_number(i || 'b') % n.n as b from range(20000) t(i), n)
                where a <> b
            ),
            shared as (
                select d.doc_id_a, d.doc_id_b, count(sb.doc_id) as intersection
                from drawn as d
                join shingles as sa on sa.doc_id = d.doc_id_a
                left join shingles as sb on sb.doc_id = d.doc_id_b and sb.fingerprint = sa.fingerprint
                group by all
            )
            select s.doc_id_a, s.doc_id_b, s.intersection / (ca.n + cb.n - s.intersection) as jaccard
            from shared as s
            join shingle_counts as ca on ca.doc_id = s.doc_id_a
            join shingle_counts as cb on cb.doc_id = s.doc_id_b
            """.replace("shingle_counts", "(select doc_id, count(*) as n from shingles group by doc_id)")
        ).fetchall()
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workload", choices=list(WORKLOADS))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--work", default="/tmp/dedup-bench")
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    workload = WORKLOADS[args.workload]
    source = write(workload, work)
    db = prepare(source, work, workload.shingle_type, workload.shingle_size, args.threshold, args.threads)
    banding = choose_banding(args.threshold, NUM_PERM)
    con = duckdb.connect(str(db), config={"threads": args.threads})
    (n_truth,) = con.execute("select count(*) from truth").fetchall()[0]
    print(f"{args.workload}: {n_truth} exact pairs >= {args.threshold}; {banding.bands} bands x {banding.rows} rows")
    print("| family | sig s (median) | bias | rmse | recall | candidates | rand bias |")
    print("|---|---|---|---|---|---|---|")
    for family in args.families:
        sql = signatures_sql(family)
        seconds, rows = [], []
        for seed in args.seeds:
            clock = time.perf_counter()
            con.execute(sql, parameters(family, seed, sql)).fetchall()
            seconds.append(time.perf_counter() - clock)
            rows.append(quality(con, banding.bands, banding.rows))
            print(f"  {family} seed {seed}: {seconds[-1]:.2f} s {rows[-1]}", file=sys.stderr, flush=True)
        mean = {key: statistics.fmean(row[key] for row in rows) for key in rows[0]}
        spread = {key: (min(row[key] for row in rows), max(row[key] for row in rows)) for key in rows[0]}
        print(
            f"| {family} | {statistics.median(seconds):.2f} | {mean['bias']:+.4f} | {mean['rmse']:.4f} "
            f"| {mean['recall']:.5f} ({spread['recall'][0]:.5f}-{spread['recall'][1]:.5f}) "
            f"| {mean['candidates']:.0f} | {mean['random_bias']:+.4f} "
            f"({spread['random_bias'][0]:+.4f}..{spread['random_bias'][1]:+.4f}) |"
        )
    con.execute("drop table if exists family_signatures").fetchall()
    con.close()


if __name__ == "__main__":
    main()
