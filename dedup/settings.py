"""A run's options, composed of parts that each own their fields, defaults, form and checks:
`Reading` (how the inputs are read), `Sketch` (what defines the pairs; an index keeps its own),
`EngineOptions` (where the run works, and the limits every command on a database may set) and
`Outputs` (what the run writes). Values arrive as a user gives them (a path as a string, a mapping
or KEY=VALUE strings, None for a default) and a part puts them in one form and checks them when it
is made, alone or as a part of `Settings`, which checks what lies between two parts; the checks
that look at files come in `dedup.options.run_options`, which every command and `dedup.run` call."""

from __future__ import annotations

import dataclasses
import numbers
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from pathlib import Path
from typing import Any, ClassVar

from .banding import Banding, candidate_probability, choose_banding
from .choices import EngineName, ExportKind, Keep, Method, PairsListed, Resolve, ShingleType, choose, values
from .errors import UsageError
from .frequency_cap import FrequencyCap
from .hashing import DEFAULT_SEED
from .keep_by import KeepBy
from .names import check_name_length

# DuckDB's memory_limit syntax: a number and a unit (500MB, 2GiB, 1.5 GB).
MEMORY_LIMIT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(b|bytes|kb|mb|gb|tb|kib|mib|gib|tib)\s*$", re.IGNORECASE)
# Its units, as DuckDB reads them: KB, MB, ... powers of 1000; KiB, MiB, ... of 1024.
MEMORY_UNITS = {"b": 1, "bytes": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
MEMORY_UNITS |= {"kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}

# Bounds that keep a run finite: DuckDB's regular expressions (RE2) repeat at most 1,000 times
# (`invalid repetition size` beyond); a signature has one column per permutation (16,384 ran for
# hours); 100,000 threads hung DuckDB while it started them.
MAX_SHINGLE_SIZE = 1000
MAX_NUM_PERM = 1024
MAX_THREADS = 256


# --memory-limit is the run's budget, not DuckDB's alone: DuckDB's memory_limit counts its buffer
# pool, and the process holds ~1.2 GiB besides on a large run (Python, Arrow, DuckDB's allocations
# outside the pool, and memory freed but not yet returned: the resident size swings by 0.3 GiB
# within half a second). Measured at 10M documents under 4GB: a 3/4 share peaked at 4.06-4.12 GiB,
# 0.35 GiB above the highest of polls every 0.5 s; this share at 3.49 GiB (polls 3.41), with the
# same stage seconds (1,072 against 1,063); at 1M under 2GB 1.8-1.9 GiB and 1 % more stage seconds.
DUCKDB_SHARE = 0.65


# The smallest --memory-limit that works: DuckDB pins buffers for each thread's hash tables and
# sorts, which cannot spill, so a smaller limit failed with "failed to pin block" whatever the
# spill folder. Measured on 100k short lines (char 3, t 0.5) and 100k tiny files: 1 thread worked
# under 150MB; 2 failed under 150MB and worked under 200MB; 4 and 8 failed under 256MB and worked
# under 320MB. This floor is above each limit that worked.
MEMORY_FLOOR_BASE = 128 * 10**6
MEMORY_FLOOR_PER_THREAD = 48 * 10**6


def memory_floor(threads: int | None) -> int:
    """The smallest --memory-limit, in bytes, for this many threads (None: DuckDB's, one a core)."""
    return MEMORY_FLOOR_BASE + MEMORY_FLOOR_PER_THREAD * (threads or os.cpu_count() or 1)


def memory_bytes(memory_limit: str) -> int:
    """A checked --memory-limit (MEMORY_UNITS) in bytes."""
    match = MEMORY_LIMIT.match(memory_limit)
    assert match is not None, "checked when the options were"
    return int(float(match.group(1)) * MEMORY_UNITS[match.group(2).lower()])


# Without --memory-limit a run's budget is half this machine's memory (or of its control group's
# limit, in a container): DuckDB's own default, 80 % of the machine for its buffer pool alone,
# left a shared machine a fifth and the process's memory outside the pool on top. Measured on 1M
# generated documents (scale-1m, char 9; 24 GiB, 2 cores; farm-bench, 2 pairs): a 12GB budget
# ran as DuckDB's default did, 86.9 s against 85.4 s wall, the same peak (5.4 GiB); batches shrink
# with the budget only below a 3 GB one (stages.batch_sizes), a machine of less than 6 GB.
DEFAULT_BUDGET_SHARE = 0.5


def machine_memory() -> int | None:
    """This machine's memory in bytes, or its control group's limit when lower (None: unknown)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit_file).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total


def default_budget() -> int | None:
    """The run's memory budget without --memory-limit, in bytes (None: the machine's is unknown,
    and DuckDB's own default applies)."""
    total = machine_memory()
    return int(total * DEFAULT_BUDGET_SHARE) if total else None


def duckdb_memory_bytes(memory_limit: str | None) -> int | None:
    """DuckDB's share of a --memory-limit (a checked size, MEMORY_UNITS), or of the default budget
    when none is given, in bytes."""
    budget = memory_bytes(memory_limit) if memory_limit is not None else default_budget()
    return int(budget * DUCKDB_SHARE) if budget is not None else None


STDOUT = Path("-")  # `--output -`: the pairs printed, as without --output

# The options that define a run's result, recorded in its runs table (an index keeps them).
RECORDED = (
    "threshold", "shingle_type", "shingle_size", "num_perm", "seed", "bands", "rows", "lines", "id_column",
    "text_column", "include_hidden", "strip_html", "delimiter", "method", "follow_links", "keep_by", "max_shingle_df",
)  # fmt: skip


NUMBERS: dict[type, type] = {numbers.Real: float, numbers.Integral: int}  # each number option's Python type


def check_type(name: str, value: object, kind: type) -> None:
    """Refuse a value (None aside) that is not of `kind` in one line: numbers.Real, numbers.Integral
    (neither takes a bool), bool or str."""
    if value is None or isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
        return
    what = {bool: "True or False", str: "a string", numbers.Integral: "an integer"}.get(kind, "a number")
    raise UsageError(f"{name} must be {what}, got {value!r}")


def option_name(field_name: str) -> str:
    """The command-line option of a field of Settings' parts: replace_documents is --replace, the rest alike."""
    return "--replace" if field_name == "replace_documents" else "--" + field_name.replace("_", "-")


def check_types(part: Any) -> None:
    """Values of the wrong type among a part's fields, which `dedup.run` can be given, refused in one
    line before any work (a string threshold, a bool shingle size); a numpy integer or float taken
    as Python's own. The part names the type of each of its fields that is not a path or a choice,
    as given (`TYPES`; a bool is not taken for a number)."""
    for name, kind in part.TYPES.items():
        value = getattr(part, name)
        check_type(option_name(name), value, kind)
        if value is not None and kind in NUMBERS:
            object.__setattr__(part, name, NUMBERS[kind](value))


def recorded_fields(part: type, options: Mapping[str, Any], leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fields of the part `part` that a recorded run (its runs table, Settings.options) holds,
    but those `leave_out` names."""
    names = (item.name for item in dataclasses.fields(part) if item.init and item.name not in leave_out)
    return {name: options[name] for name in names if name in options}


def as_paths(part: object, *names: str) -> None:
    """A part's fields that name files, each as a Path (None stays None)."""
    for name in names:
        value = getattr(part, name)
        object.__setattr__(part, name, None if value is None else Path(value))


@dataclass(frozen=True)
class Sketch:
    """What defines the pairs of a run: the shingles, the signatures, the bands, the method and the
    threshold, each in its one form and checked when the sketch is made. What the stages and the
    index's queries are compiled from; an index keeps its sketch (recorded)."""

    threshold: float = 0.8
    shingle_type: ShingleType = ShingleType.char
    shingle_size: int = 9
    num_perm: int = 128
    seed: int = DEFAULT_SEED
    method: Method = Method.lsh
    bands: int | None = None  # as given: None lets the threshold choose (banding)
    rows: int | None = None
    max_shingle_df: str | None = None  # --max-shingle-df in its one spelling (FrequencyCap): None leaves every shingle
    banding: Banding = field(init=False)
    TYPES: ClassVar[dict[str, type]] = {
        "threshold": Real, "shingle_size": Integral, "num_perm": Integral, "seed": Integral, "bands": Integral,
        "rows": Integral,
    }  # fmt: skip

    def __post_init__(self) -> None:
        check_types(self)
        set_ = object.__setattr__
        if self.seed is None:
            set_(self, "seed", DEFAULT_SEED)
        set_(self, "shingle_type", choose(ShingleType, self.shingle_type, "--shingle-type"))
        set_(self, "method", choose(Method, self.method, "--method"))
        if not 0.0 <= self.threshold <= 1.0:
            raise UsageError(f"--threshold must be between 0 and 1, got {self.threshold}")
        if self.method == "exact" and self.threshold <= 0.0:
            raise UsageError("--method exact needs --threshold above 0 (at 0 every pair of documents qualifies)")
        if not 1 <= self.shingle_size <= MAX_SHINGLE_SIZE:
            raise UsageError(
                f"--shingle-size must be between 1 and {MAX_SHINGLE_SIZE:,} (the longest repetition DuckDB's "
                f"regular expressions allow), got {self.shingle_size:,}"
            )
        if not 1 <= self.num_perm <= MAX_NUM_PERM:
            raise UsageError(
                f"--num-perm must be between 1 and {MAX_NUM_PERM:,} (a signature is one SQL column per "
                f"permutation), got {self.num_perm:,}"
            )
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed must be between 0 and 2^63-1, got {self.seed}")
        set_(self, "banding", self._banding())
        if self.max_shingle_df is not None:
            set_(self, "max_shingle_df", str(FrequencyCap.parse(self.max_shingle_df)))

    @property
    def max_df(self) -> FrequencyCap | None:
        """--max-shingle-df: the boilerplate stage's cap on a shingle's document frequency, or None."""
        return None if self.max_shingle_df is None else FrequencyCap.parse(self.max_shingle_df)

    def _banding(self) -> Banding:
        bands, rows, num_perm = self.bands, self.rows, self.num_perm
        for name, value in (("--bands", bands), ("--rows", rows)):
            if value is not None and value < 1:
                raise UsageError(f"{name} must be at least 1, got {value}")
        if bands is None and rows is None:
            return choose_banding(self.threshold, num_perm)
        if bands is None or rows is None:
            given = bands if bands is not None else rows
            assert given is not None
            if num_perm % given:
                raise UsageError(f"--num-perm {num_perm} is not divisible by {given}; give both --bands and --rows")
            other = num_perm // given
            bands, rows = (given, other) if bands is not None else (other, given)
        if bands * rows != num_perm:
            raise UsageError(f"--bands {bands} x --rows {rows} = {bands * rows}, but --num-perm is {num_perm}")
        return Banding(bands=bands, rows=rows)

    @property
    def detection_probability(self) -> float:
        """P(a pair at exactly the threshold becomes a candidate) with these options."""
        return candidate_probability(self.method, self.threshold, self.banding, self.num_perm)

    def recorded_value(self, name: str) -> object:
        """An option as the runs table records it: the banding chosen, not as given."""
        return {"bands": self.banding.bands, "rows": self.banding.rows}.get(name, getattr(self, name))

    @classmethod
    def recorded(cls, options: Mapping[str, Any]) -> Sketch:
        """The sketch of a recorded run (Settings.options): a banding that the threshold would choose
        anyway is left to choose again."""
        given = recorded_fields(cls, options)
        automatic = choose_banding(given["threshold"], given["num_perm"])
        if (automatic.bands, automatic.rows) == (given.get("bands"), given.get("rows")):
            given["bands"] = given["rows"] = None
        return cls(**given)


@dataclass(frozen=True)
class Reading:
    """How a run reads its inputs: what the readers of both engines and the deduplicated copy
    take, each in its one form and checked when made. `dedup add` reads with its index's (recorded)."""

    inputs: tuple[Path, ...] = ()
    lines: bool = False
    id_column: str | None = None
    text_column: str = "text"
    include_hidden: bool = False
    strip_html: bool = False
    delimiter: str | None = None
    follow_links: bool = False  # read symlinks below an input folder that lead outside it
    ids_file: Path | None = None  # --ids: the ids of a --lines input's documents, one per line
    keep_by: str | None = None  # --keep-by: a table column preferred before --keep (dedup.keep_by)
    TYPES: ClassVar[dict[str, type]] = {
        "lines": bool, "include_hidden": bool, "strip_html": bool, "follow_links": bool,
        "id_column": str, "text_column": str, "delimiter": str, "keep_by": str,
    }  # fmt: skip

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        inputs = self.inputs
        paths = [inputs] if isinstance(inputs, (str, os.PathLike)) else inputs
        if not isinstance(paths, Iterable) or not all(isinstance(p, (str, os.PathLike)) for p in paths):
            raise UsageError(f"inputs must be a path or a list of paths, got {inputs!r}")
        check_types(self)
        set_(self, "inputs", tuple(Path(p) for p in paths))
        as_paths(self, "ids_file")
        if self.text_column is None:
            set_(self, "text_column", "text")
        if self.delimiter in ("\\t", "tab"):
            set_(self, "delimiter", "\t")
        if self.keep_by is not None:  # in its one spelling, as the runs table records it
            set_(self, "keep_by", str(KeepBy.parse(self.keep_by)))
        if not self.inputs:
            raise UsageError("give at least one input (a folder, a text file or a table)")
        if self.ids_file is not None and (not self.lines or len(self.inputs) != 1):
            raise UsageError("--ids names the lines of one --lines input: give --lines and one input")

    @property
    def keep_by_column(self) -> KeepBy | None:
        return None if self.keep_by is None else KeepBy.parse(self.keep_by)

    @property
    def files_read(self) -> tuple[Path, ...]:
        """Every file or folder the run reads: its inputs and its --ids file."""
        return (*self.inputs, *((self.ids_file,) if self.ids_file is not None else ()))

    @classmethod
    def recorded(cls, options: Mapping[str, Any], inputs: tuple[Path, ...]) -> Reading:
        """How a recorded run (Settings.options) read its inputs, for `inputs` (what `dedup add` reads)."""
        return cls(inputs=inputs, **recorded_fields(cls, options, leave_out=("inputs", "ids_file")))


@dataclass(frozen=True)
class EngineOptions:
    """Where and on what a run works: the engine, the database kept, the limits of DuckDB (what
    every command on a database may set too), and Spark's master, settings and work folder."""

    engine: EngineName = EngineName.duckdb
    db: Path | None = None
    keep_all_tables: bool = False  # the database keeps every stage's table, not the lean layout
    threads: int | None = None
    memory_limit: str | None = None
    temp_dir: Path | None = None
    master: str | None = None  # Spark's master URL (None: the session's default, local[*])
    spark_conf: tuple[tuple[str, str], ...] = ()  # Spark settings (KEY, VALUE)
    work_dir: str | None = None  # where Spark writes the stage tables (None: a temporary folder, local masters only)
    TYPES: ClassVar[dict[str, type]] = {
        "threads": Integral, "keep_all_tables": bool, "memory_limit": str, "master": str,
    }  # fmt: skip

    def __post_init__(self) -> None:
        check_types(self)
        set_ = object.__setattr__
        as_paths(self, "db", "temp_dir")
        if self.work_dir is not None:
            set_(self, "work_dir", str(self.work_dir))
        set_(self, "spark_conf", _pairs(self.spark_conf, "--spark-conf", "KEY=VALUE", empty_value=True))
        set_(self, "engine", choose(EngineName, self.engine, "--engine"))
        if self.threads is not None and not 1 <= self.threads <= MAX_THREADS:
            raise UsageError(f"--threads must be between 1 and {MAX_THREADS}, got {self.threads:,}")
        if self.memory_limit is not None and not MEMORY_LIMIT.match(self.memory_limit):
            raise UsageError(f"--memory-limit must be a size such as 500MB or 2GB, got {self.memory_limit!r}")
        if self.memory_limit is not None and memory_bytes(self.memory_limit) < memory_floor(self.threads):
            floor = memory_floor(self.threads)
            threads = self.threads or os.cpu_count() or 1
            fewer = ", or fewer --threads" if threads > 1 else ""
            raise UsageError(
                f"--memory-limit {self.memory_limit.strip()} is below the {floor // 10**6}MB a run with "
                f"{threads} thread{'s' if threads > 1 else ''} needs (DuckDB pins buffers for each thread that "
                f"cannot spill): give --memory-limit {floor // 10**6}MB or more{fewer}"
            )
        if self.temp_dir is not None:
            check_name_length(self.temp_dir, f"--temp-dir {self.temp_dir.name}")
        if self.temp_dir is not None and self.temp_dir.exists() and not self.temp_dir.is_dir():
            raise UsageError(f"--temp-dir is not a folder: {self.temp_dir}")
        if self.db == STDOUT:  # it was made in the current folder, named `-`
            raise UsageError("--db -: the database is written to a file, not to standard output; name the file")

    @property
    def duckdb_memory_bytes(self) -> int | None:
        """DuckDB's share of --memory-limit, in bytes (see DUCKDB_SHARE)."""
        return duckdb_memory_bytes(self.memory_limit)


@dataclass(frozen=True)
class Outputs:
    """What a run writes besides its database: the pairs listed (to --output, or returned), the
    survivors' rule, the exports, the deduplicated copy and the audit of its recall."""

    output: Path | None = None  # --output: the pairs to this file (None: returned, or printed)
    # the --output file's format when its name has no suffix dedup knows (-o /dev/null --format csv)
    output_format: str | None = None
    pairs: PairsListed = PairsListed.all  # which pairs are listed (output, stdout, the returned table)
    keep: Keep | None = None  # the survivors' order given (None: not given; clusters then prefer the first)
    resolve: Resolve | None = None  # which documents survive (None: not given; verified)
    write_deduplicated: Path | None = None  # the input minus the dropped duplicates, in the input's form
    exports: tuple[tuple[ExportKind, Path], ...] = ()  # --export WHAT=FILE
    audit: int | None = None  # --audit N: measure recall on N sampled documents (seeded by --seed)
    replace_documents: bool = False  # a run may drop documents of an existing --db that the inputs lack
    TYPES: ClassVar[dict[str, type]] = {"audit": Integral, "replace_documents": bool}

    def __post_init__(self) -> None:
        check_types(self)
        set_ = object.__setattr__
        as_paths(self, "output", "write_deduplicated")
        if self.output == STDOUT:
            set_(self, "output", None)
        exports = _pairs(self.exports, "--export", "WHAT=FILE, e.g. survivors=kept.csv", empty_value=False)
        for what, _ in exports:
            if what not in values(ExportKind):
                raise UsageError(f"cannot export {what!r}: use one of {', '.join(values(ExportKind))}")
        set_(self, "exports", tuple((ExportKind(what), Path(file)) for what, file in exports))
        set_(self, "pairs", choose(PairsListed, self.pairs, "--pairs"))
        if self.keep is not None:
            set_(self, "keep", choose(Keep, self.keep, "--keep"))
        if self.resolve is not None:
            set_(self, "resolve", choose(Resolve, self.resolve, "--resolve"))
        if self.output is not None and self.pairs is PairsListed.none:
            raise UsageError("--pairs none lists no pairs: drop --output, or list all or between-groups")
        if self.audit is not None and self.audit < 1:
            raise UsageError(f"--audit must be at least 1 (documents to sample), got {self.audit}")
        if self.write_deduplicated == STDOUT:
            raise UsageError(
                "--write-deduplicated -: the copy is written to a file, not to standard output; name the file"
            )

    @property
    def output_kind(self) -> str | None:
        """The format the --output file is written in: the one its suffix names, else output_format
        (None: neither; refused by dedup.options)."""
        from .formats import OUTPUT_FORMATS, named_format

        if self.output is None:
            return None
        return named_format(self.output, OUTPUT_FORMATS) or self.output_format


@dataclass(frozen=True)
class Settings:
    """Every option of a run (`dedup run`, `dedup.run`, `dedup eval`), composed of its parts, each
    owning its fields, defaults, form and checks: how the inputs are read, what defines the pairs,
    where the run works, and what it writes. Made from options by name (`Settings.of`); the checks
    here are those between two parts."""

    reading: Reading
    sketch: Sketch = field(default_factory=Sketch)
    engine_options: EngineOptions = field(default_factory=EngineOptions)
    outputs: Outputs = field(default_factory=Outputs)

    def __post_init__(self) -> None:
        outputs = self.outputs
        if outputs.audit is not None and self.sketch.threshold <= 0.0:
            raise UsageError("--audit needs --threshold above 0 (at 0 every pair of documents qualifies)")
        if outputs.pairs is PairsListed.none and not (
            self.engine_options.db or outputs.exports or outputs.write_deduplicated
        ):
            raise UsageError(
                "--pairs none lists no pairs and nothing else was asked: give --db, --export or --write-deduplicated"
            )

    @classmethod
    def of(cls, **options: Any) -> Settings:
        """The settings of options given by their names, each the field of one part."""
        return cls(**{part: PARTS[part](**given) for part, given in _by_part(options).items()})

    def replace(self, **changes: Any) -> Settings:
        """These settings with the options named changed, each in its part (checked again)."""
        parts = {part: getattr(self, part) for part in PARTS}
        for part, given in _by_part(changes).items():
            parts[part] = dataclasses.replace(parts[part], **given)
        return Settings(**parts)

    def value(self, name: str) -> Any:
        """The option of this name, from the part that owns it (the engines' refusals name options so)."""
        return getattr(getattr(self, PART_OF[name]), name)

    def options(self) -> dict[str, object]:
        """The options that define the result, as recorded in the runs table (RECORDED)."""
        return {
            name: self.sketch.recorded_value(name) if PART_OF[name] == "sketch" else self.value(name)
            for name in RECORDED
        }


# The parts of a run's options (Settings' fields), and the part that owns each option.
PARTS: dict[str, type] = {"reading": Reading, "sketch": Sketch, "engine_options": EngineOptions, "outputs": Outputs}
PART_OF = {item.name: part for part, kind in PARTS.items() for item in dataclasses.fields(kind) if item.init}


def _by_part(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Options by name, grouped by the part that owns each (every part, given or not)."""
    grouped: dict[str, dict[str, Any]] = {part: {} for part in PARTS}
    for name, value in options.items():
        if name not in PART_OF:
            raise TypeError(f"no option named {name!r}")
        grouped[PART_OF[name]][name] = value
    return grouped


def _pairs(
    items: Mapping[str, Any] | Iterable[Any], option: str, form: str, empty_value: bool
) -> tuple[tuple[str, Any], ...]:
    """(key, value) pairs from a mapping, from (key, value) pairs, or from strings KEY=VALUE (whose
    VALUE may be empty when empty_value)."""
    if isinstance(items, Mapping):
        return tuple(items.items())
    pairs = []
    for item in items:
        if isinstance(item, str):
            key, equals, value = item.partition("=")
            if not equals or not key or not (value or empty_value):
                raise UsageError(f"{option} takes {form}, got {item!r}")
            item = (key, value)
        pairs.append(tuple(item))
    return tuple(pairs)  # type: ignore[arg-type]
