"""The whole pipeline, back-translation included, on Beam's portable engine: a job service and an SDK worker pool in
processes of their own, the Fn API path that Flink, Spark and Dataflow runner v2 use. The job must write the same
shards (byte for byte) as the in-process run, count its rows from Beam metrics, do its work outside the launcher,
and outlive several progress intervals (a second timed wait on a job kills it)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.launcher import progress
from pipeline.run import main
from tests.support.repo import REPO_ROOT
from tests.support.sample_run import SUITE_KERNEL

SAMPLE = REPO_ROOT / "configs" / "sample"
PAIRS = 300  # a few hundred pairs of the bundled sample, translated by the default model (small-cs-en)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[2]} exited with {process.returncode} before listening on {port}")
        with socket.socket() as s:
            if s.connect_ex(("localhost", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on port {port} after 60 s")


@pytest.fixture(scope="module")
def portable_engine(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A local job service and an SDK worker pool, each started in a folder of its own (the launcher runs in a third:
    relative paths mean nothing to the workers), killed at the end whatever happens."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop(progress.ENV, None)  # the venv on PATH: the pool starts workers with `python`
    job_port, worker_port = _free_port(), _free_port()
    commands = [
        [sys.executable, "-m", "apache_beam.runners.portability.local_job_service_main", "--port", str(job_port)],
        [sys.executable, "-m", "apache_beam.runners.worker.worker_pool_main", "--service_port", str(worker_port)],
    ]
    logs = tmp_path_factory.mktemp("engine-logs")
    processes: list[subprocess.Popen] = []
    with contextlib.ExitStack() as files:
        try:
            for i, command in enumerate(commands):
                log = files.enter_context(open(logs / f"{i}.log", "wb"))
                processes.append(subprocess.Popen(command, env=env, cwd=tmp_path_factory.mktemp(f"engine-{i}"),
                                                  start_new_session=True, stdout=log, stderr=subprocess.STDOUT))
            deadline = time.monotonic() + 60
            _wait_for_port(job_port, processes[0], deadline)
            _wait_for_port(worker_port, processes[1], deadline)
            yield {"job_endpoint": f"localhost:{job_port}", "worker_pool": f"localhost:{worker_port}"}
        finally:
            for process in processes:
                if process.poll() is None:
                    os.killpg(process.pid, 9)  # the pool's workers are in its session
                process.wait(timeout=30)


def _sample(tmp_path: Path) -> tuple[Path, Path]:
    cs, en = tmp_path / "p.cs", tmp_path / "p.en"
    for side, path in (("cs", cs), ("en", en)):
        lines = (SAMPLE / f"sample.{side}").read_text(encoding="utf-8").splitlines()[:PAIRS]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cs, en


def _shard_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for name in ("pairs", "train", "rejected", "deadletter")
            for p in sorted((out / name).glob("*.parquet"))}


@pytest.mark.slow  # minutes: two processes start, the pool's workers load the model; the path resolution and the
# refusal are checked in seconds by tests/pipeline/launcher/test_options.py
def test_pipeline_on_the_portable_engine_matches_the_in_process_run(tmp_path, portable_engine, capsys,
                                                                    monkeypatch):
    """Launched from a folder of its own with relative input and output paths, which the launcher gives the workers
    as absolute paths; its progress lines show the workers' live counts."""
    cs, en = _sample(tmp_path)
    monkeypatch.chdir(tmp_path)
    # the default model translates, in chunks of 50 rows: each chunk is in the translation cache once translated
    common = ["--config", "sample", "--cs", cs.name, "--en", en.name, "--set", "pipeline.cache_chunk_lines=50",
              "--set", SUITE_KERNEL]
    assert main([*common, "--out", "local"]) == 0
    capsys.readouterr()
    # A progress line every 0.2 s: the job (tens of seconds: workers start, load the model, translate) lives for
    # many intervals, as a real job lives for many minutes.
    assert main([*common, "--out", "portable", "--progress-every", "0.2",
                 "--runner", "PortableRunner", "--job_endpoint", portable_engine["job_endpoint"],
                 "--environment_type", "EXTERNAL", "--environment_config", portable_engine["worker_pool"]]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith(("RUNNING", "DONE"))]
    running = [line for line in lines if line.startswith("RUNNING: ")]
    assert len(running) >= 2, lines
    # live counts from what the pool's workers wrote while the job ran (the job service reports metrics at the end)
    translated = [int(line.split("translated ")[1].split("/")[0].replace(",", "")) for line in running]
    assert translated == sorted(translated) and 0 < translated[-1] <= PAIRS, lines
    assert lines[-1].startswith(f"DONE: read {PAIRS}/{PAIRS} · ")

    assert not (tmp_path / "portable" / "_staging").exists()
    local_shards = _shard_bytes(tmp_path / "local")
    assert _shard_bytes(tmp_path / "portable") == local_shards and len(local_shards) >= 4
    summary = json.loads((tmp_path / "portable" / "summary.json").read_text())
    assert summary["runner"] == "PortableRunner"
    assert summary["metrics"]["read"] == PAIRS  # from the job's Beam metrics ...
    assert summary["identity"]["holds"] and summary["read"] == PAIRS  # ... and recounted from the files
    written = pq.read_table(tmp_path / "portable" / "pairs").num_rows
    assert summary["metrics"]["written_pairs"] == summary["pairs"] == written
