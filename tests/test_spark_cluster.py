"""A real standalone Spark cluster on 127.0.0.1: a master and two workers, each its own JVM, started
from the pyspark package's own spark-class, and a run through --master spark://127.0.0.1:PORT."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO
from typer.testing import CliRunner

from dedup.cli import app

pytestmark = pytest.mark.slow
runner = CliRunner()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the Spark master exited with {process.returncode}"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """spark://127.0.0.1:PORT with two workers of one core each; every JVM it started is stopped after."""
    import pyspark

    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    logs = tmp_path_factory.mktemp("cluster-logs")
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_HOME": str(spark_class.parent.parent)}
    port = free_port()
    master_url = f"spark://127.0.0.1:{port}"
    started: list[subprocess.Popen] = []

    def start(name: str, *args: str) -> subprocess.Popen:
        log = (logs / f"{name}.log").open("w")
        process = subprocess.Popen([str(spark_class), *args], env=env, stdout=log, stderr=subprocess.STDOUT)
        started.append(process)
        return process

    try:
        master = start(
            "master", "org.apache.spark.deploy.master.Master",
            "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port()),
        )  # fmt: skip
        wait_for_port(port, master)
        for i in range(2):
            start(
                f"worker{i}", "org.apache.spark.deploy.worker.Worker", master_url,
                "--host", "127.0.0.1", "--cores", "1", "--memory", "1g", "--webui-port", str(free_port()),
                "--work-dir", str(logs / f"worker{i}"),
            )  # fmt: skip
        yield master_url
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_a_run_on_a_standalone_cluster_gives_the_duckdb_pairs(cluster, tmp_path):
    expected = tmp_path / "duckdb.csv"
    options = ["--threshold", "0.5", "--shingle-type", "word", "-k", "3"]
    assert (
        runner.invoke(app, ["run", str(REPO / "data" / "clough"), *options, "-q", "-o", str(expected)]).exit_code == 0
    )
    found = tmp_path / "cluster.csv"
    command = [
        sys.executable, "-m", "dedup", "run", str(REPO / "data" / "clough"), *options,
        "--engine", "spark", "--master", cluster, "--work-dir", str(tmp_path / "work"),
        "--spark-conf", "spark.executor.memory=768m", "--spark-conf", "spark.sql.shuffle.partitions=4",
        "--spark-conf", "spark.driver.host=127.0.0.1", "-o", str(found),
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=1200, env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"}
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert found.read_bytes() == expected.read_bytes()
    assert "pairs" in done.stderr  # the summary of the run
