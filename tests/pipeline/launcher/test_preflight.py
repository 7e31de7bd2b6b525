"""What the launcher settles before Beam loads: the Beam argument list, where the runner's workers run, and the
paths they are given (:mod:`pipeline.launcher.preflight`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from configs import load_config
from configs.schema import PipelineConfig
from pipeline.launcher.preflight import beam_argv

PORTABLE_HERE = ["--runner", "PortableRunner", "--job_endpoint", "localhost:8099", "--environment_type", "EXTERNAL",
                 "--environment_config", "localhost:50000"]


def test_beam_options_precedence():
    config = PipelineConfig(beam_options={"direct_num_workers": 4, "direct_running_mode": "multi_processing"})
    argv = beam_argv(config, ["--direct_num_workers=2"])
    assert argv == ["--runner=FnApiRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
    assert beam_argv(config, ["--runner", "DataflowRunner"])[0:1] == ["--direct_num_workers=4"]


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
