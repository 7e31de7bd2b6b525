"""The pipeline section of the configuration and how Beam options are assembled."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from apache_beam.options.pipeline_options import PipelineOptions

from configs import load_config
from configs.schema import PipelineConfig
from pipeline.launcher.options import WORKER_OPTIONS_FILE, beam_checks_speak_last, local_worker_logging
from pipeline.launcher.preflight import beam_argv


def test_pipeline_config_loads_with_overrides_and_flags():
    config = load_config("sample", ["pipeline.num_shards=8", "pipeline.limit=5"], {"pipeline.limit": 3})
    assert config.pipeline.num_shards == 8 and config.pipeline.limit == 3  # flags beat --set
    from configs import ConfigError

    with pytest.raises(ConfigError, match=r"pipeline\.num_shardz"):
        load_config(None, ["pipeline.num_shardz=2"])
    with pytest.raises(ConfigError, match=r"pipeline\.max_length_ratio"):  # a prefilter key: no pipeline field
        load_config(None, ["pipeline.max_length_ratio=0.5"])
    with pytest.raises(ConfigError, match=r"prefilter\.rules"):
        load_config(None, ["prefilter.rules=[{a: 1, b: 2}]"])


def test_beam_options_precedence():
    config = PipelineConfig(beam_options={"direct_num_workers": 4, "direct_running_mode": "multi_processing"})
    argv = beam_argv(config, ["--direct_num_workers=2"])
    assert argv == ["--runner=FnApiRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
    assert beam_argv(config, ["--runner", "DataflowRunner"])[0:1] == ["--direct_num_workers=4"]


MULTI = ["--direct_running_mode=multi_processing", "--direct_num_workers=2"]


def _worker_options(argv: list[str], *, local: bool = True) -> dict | None:
    """What a worker process of the block would read (None: nothing), and that the block cleans up after itself."""
    with local_worker_logging(PipelineOptions(argv), local=local):
        path = os.environ.get(WORKER_OPTIONS_FILE)
        seen = json.loads(Path(path).read_text(encoding="utf-8")) if path else None
    assert WORKER_OPTIONS_FILE not in os.environ and (path is None or not Path(path).exists())
    return seen


def test_local_multi_process_workers_log_as_the_launcher(monkeypatch):
    monkeypatch.delenv(WORKER_OPTIONS_FILE, raising=False)
    assert _worker_options(MULTI) == {"options": {"default_sdk_harness_log_level": "WARNING",
                                                  "sdk_harness_log_level_overrides": {"__main__": "ERROR"}}}
    # the command line's harness log options reach the workers, which Beam's local runner alone never passes
    given = _worker_options([*MULTI, "--default_sdk_harness_log_level=DEBUG",
                             '--sdk_harness_log_level_overrides={"pipeline": "INFO"}'])
    assert given == {"options": {"default_sdk_harness_log_level": "DEBUG",
                                 "sdk_harness_log_level_overrides": {"pipeline": "INFO"}}}
    assert _worker_options([*MULTI, "--default_sdk_harness_log_level=INFO"]) == {
        "options": {"default_sdk_harness_log_level": "INFO"}}  # every line back, the harness's own included
    # in-process and remote runs have no worker processes of the launcher's; a file the user names is theirs
    assert _worker_options([]) is None and _worker_options(MULTI, local=False) is None
    monkeypatch.setenv(WORKER_OPTIONS_FILE, "/theirs.json")
    with local_worker_logging(PipelineOptions(MULTI), local=True):
        assert os.environ[WORKER_OPTIONS_FILE] == "/theirs.json"


def test_beams_own_warnings_wait_for_its_checks(caplog):
    """Held while Beam checks the options: dropped when the check fails (the error line says it all), logged as
    usual when it passes."""
    beam_log = logging.getLogger("apache_beam.options.pipeline_options")
    with caplog.at_level(logging.WARNING), pytest.raises(ValueError), beam_checks_speak_last():
        beam_log.warning("Unable to create default GCS bucket.")
        raise ValueError("Missing required option: project")
    assert not caplog.records
    with caplog.at_level(logging.WARNING), beam_checks_speak_last():
        beam_log.warning("a warning worth reading")
        assert not caplog.records
    assert [r.getMessage() for r in caplog.records] == ["a warning worth reading"]


# ------------------------------------------------------------------------------------ paths the workers can read

PORTABLE_HERE = ["--runner", "PortableRunner", "--job_endpoint", "localhost:8099", "--environment_type", "EXTERNAL",
                 "--environment_config", "localhost:50000"]


def test_the_runners_whose_workers_cannot_read_this_disk():
    from pipeline.launcher.preflight import beam_option, workers_apart

    assert beam_option(["--runner=X", "--job_endpoint", "h:1", "--job-endpoint=h:2"], "job_endpoint") == "h:2"
    for here in (["--runner=FnApiRunner"], ["--runner", "FnApiRunner", "--direct_running_mode", "multi_processing"],
                 PORTABLE_HERE,
                 ["--runner=PortableRunner", "--job_endpoint=127.0.0.1:1", "--environment_type=LOOPBACK"],
                 ["--runner=apache_beam.runners.portability.portable_runner.PortableRunner",
                  "--job_endpoint=[::1]:1", "--environment_type=PROCESS"], ["--runner=SparkRunner",
                                                                            "--environment_type=EXTERNAL"]):
        assert workers_apart(here) is None, here
    assert "Google Cloud" in workers_apart(["--runner", "DataflowRunner"])
    assert "job service at flink-jobs:8099 is on another machine" in workers_apart(
        [*PORTABLE_HERE, "--job_endpoint", "flink-jobs:8099"])
    assert "Docker" in workers_apart(["--runner=PortableRunner", "--job_endpoint=localhost:8099"])
    assert "Flink cluster at flink:8081" in workers_apart(["--runner=FlinkRunner", "--flink_master=flink:8081"])


def test_every_local_path_is_made_absolute_for_the_workers(tmp_path, monkeypatch):
    from pipeline.inputs.plan import InputSpec
    from pipeline.launcher.preflight import paths_for_workers

    monkeypatch.chdir(tmp_path)
    config = load_config(None, ["translate.model=models/m", "pipeline.cache_dir=cache", "score.scorer=s.npz",
                                "score.word_frequencies=f.txt", "select.exclude_sentences=[sts/*.txt]"])
    specs = [InputSpec.pair("in/w.cs", "in/w.en"), InputSpec.tsv("gs://b/part-*.tsv"), InputSpec.jsonl("x/*.jsonl")]
    resolved, paths, out = paths_for_workers(config, specs, "runs/x", PORTABLE_HERE)
    assert [spec.paths for spec in paths] == [(f"{tmp_path}/in/w.cs", f"{tmp_path}/in/w.en"), ("gs://b/part-*.tsv",),
                                              (f"{tmp_path}/x/*.jsonl",)]
    assert paths[0].kind == "pair" and paths[1].cs_column == 0 and out == f"{tmp_path}/runs/x"
    assert resolved.translate.model == tmp_path / "models" / "m" and resolved.pipeline.cache_dir == f"{tmp_path}/cache"
    assert str(resolved.score.scorer) == f"{tmp_path}/s.npz" and resolved.score.word_frequencies == tmp_path / "f.txt"
    assert resolved.select.exclude_sentences == [f"{tmp_path}/sts/*.txt"]
    assert config.translate.model == Path("models/m") and specs[0].paths == ("in/w.cs", "in/w.en")  # not changed


def test_a_local_path_is_refused_where_the_workers_cannot_read_it(tmp_path):
    from pipeline.inputs.plan import InputSpec
    from pipeline.launcher.preflight import WorkerPathError, paths_for_workers

    dataflow = ["--runner", "DataflowRunner"]
    config = load_config(None, [])
    with pytest.raises(WorkerPathError, match=r"^--en in/w\.en is on this machine's disk, but DataflowRunner's workers "
                                              r"are Google Cloud machines: give a gs:// or s3:// URL, or a path on a "
                                              r"mount every worker shares, named with --shared-mount FOLDER$"):
        paths_for_workers(config, [InputSpec.pair("gs://b/w.cs", "in/w.en")], "gs://b/out", dataflow)
    with pytest.raises(WorkerPathError, match=r"^--out runs/x is on this machine's disk"):
        paths_for_workers(config, [], "runs/x", dataflow)
    with pytest.raises(WorkerPathError, match=r"^--model models/m is a relative path, but .*inside the worker image"):
        paths_for_workers(load_config(None, ["translate.model=models/m"]), [], "gs://b/out", dataflow)
    # a model's absolute path is its path in the worker image; a shared mount is readable by every worker
    image = load_config(None, ["translate.model=/opt/paranmt/models/m"])
    resolved, specs, out = paths_for_workers(image, [InputSpec.pair(tmp_path / "w.cs", tmp_path / "w.en")],
                                             str(tmp_path / "out"), dataflow, shared_mounts=[tmp_path])
    assert resolved.translate.model == Path("/opt/paranmt/models/m") and out == str(tmp_path / "out")
    assert specs[0].paths == (str(tmp_path / "w.cs"), str(tmp_path / "w.en"))


def test_the_command_refuses_a_local_path_for_remote_workers_before_beam_loads(tmp_path):
    """One line and exit status 2, from a process that never imported Beam (the check runs before it loads)."""
    import subprocess
    import sys

    probe = ("import sys; from pipeline.run import main; code = main(sys.argv[1:]); "
             "assert 'apache_beam' not in sys.modules, 'Beam loaded'; sys.exit(code)")
    result = subprocess.run([sys.executable, "-c", probe, "--cs", "in/w.cs", "--en", "in/w.en", "--out", "gs://b/o",
                             "--runner", "PortableRunner", "--job_endpoint", "jobs.example:8099"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.splitlines() == [
        "error: --cs in/w.cs is on this machine's disk, but the job service at jobs.example:8099 is on another "
        "machine: give a gs:// or s3:// URL, or a path on a mount every worker shares, named with --shared-mount "
        "FOLDER"], result.stderr
