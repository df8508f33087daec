"""The dedup command runs without pandas (dedup.pandas_free): pyarrow imported it, where it is
installed (as with the test extras), on the first Arrow value built from Python values: 0.2 s of
every command, for nothing. The command's results are those of a process that has pandas."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dedup import pandas_free
from dedup.cli import app

REPO = Path(__file__).resolve().parents[1]


# the dedup command (dedup.__main__.main) with ARGS, then the modules it left imported, on stderr's last line
COMMAND = (
    "import atexit, sys\n"
    "atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n"
    "sys.argv = ['dedup', *sys.argv[1:]]\n"
    "from dedup.__main__ import main\n"
    "main()\n"
)


def imported_modules(*args: str, cwd: Path) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules the dedup command with ARGS imported, and its process."""
    done = subprocess.run([sys.executable, "-c", COMMAND, *args], capture_output=True, text=True, cwd=cwd)
    return set(done.stderr.splitlines()[-1].split()), done


def test_a_run_and_a_query_do_not_import_pandas(tmp_path, tiny_corpus):
    pytest.importorskip("pandas")  # installed here: without the refusal pyarrow imports it
    db = tmp_path / "index.duckdb"
    modules, done = imported_modules("run", str(tiny_corpus), "-k", "5", "--db", str(db), "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "pyarrow" in modules and "duckdb" in modules  # the modules were listed
    assert not any(module.split(".")[0] == "pandas" for module in modules)
    modules, done = imported_modules("query", str(db), "--text", "the quick brown fox jumps", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not any(module.split(".")[0] == "pandas" for module in modules)


@pytest.mark.parametrize("format", ["table", "csv", "jsonl"])
def test_values_are_written_as_a_process_with_pandas_writes_them(tmp_path, tiny_corpus, format):
    """Nanosecond times: with pandas, pyarrow's to_pylist gives pandas' Timestamp; dedup writes
    Arrow's text either way (dedup.output._values)."""
    pytest.importorskip("pandas")
    import pandas  # noqa: F401  (this process has it, as the API's callers may)

    db = tmp_path / "index.duckdb"
    assert CliRunner().invoke(app, ["run", str(tiny_corpus), "-k", "5", "--db", str(db), "-q"]).exit_code == 0
    query = "select '2020-01-01 00:00:00.000000001'::timestamp_ns as t, [1.5, null] as l, 'é' as s, 3::hugeint as h"
    in_process = CliRunner().invoke(app, ["sql", str(db), query, "--format", format])
    assert in_process.exit_code == 0, in_process.stderr
    done = subprocess.run(
        [sys.executable, "-m", "dedup", "sql", str(db), query, "--format", format],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == in_process.stdout and "000000001" in done.stdout


def test_refuse_fails_an_import_as_if_pandas_were_absent_and_allow_undoes_it():
    code = (
        "import sys; from dedup import pandas_free; pandas_free.refuse(); pandas_free.refuse()\n"
        "try:\n    import pandas\nexcept ModuleNotFoundError as error:\n    print('refused', error.name)\n"
        "import pyarrow as pa; assert pa.array([1, 2]).to_pylist() == [1, 2]\n"
        "pandas_free.allow(); import pandas; print('allowed', 'pandas' in sys.modules)\n"
    )
    pytest.importorskip("pandas")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "refused pandas\nallowed True\n"


def test_the_api_leaves_its_callers_imports_alone():
    assert pandas_free._REFUSED not in sys.meta_path  # only dedup.__main__ refuses
