"""A Dataflow job that is known to build, offline: the command docs/dataflow.md gives for GPU workers, with Beam's
``--dry_run True``, goes through graph construction, pickling and the translation to a runner v2 pipeline, and
stops before submission. Also: the worker image's Beam, Python, numpy and pyarrow are the launcher's."""

from __future__ import annotations

import re
import sys
from importlib.metadata import version

import apache_beam as beam
import pytest
from apache_beam.options.pipeline_options import GoogleCloudOptions, PipelineOptions, WorkerOptions
from apache_beam.portability import common_urns
from apache_beam.portability.api import beam_runner_api_pb2

from configs import load_config
from pipeline.graph import build_pipeline, check_run
from pipeline.inputs.plan import InputSpec
from pipeline.launcher.preflight import beam_argv
from pipeline.metrics import Step
from pipeline.outputs.run_folder import definition
from pipeline.run import main
from tests.support.repo import REPO_ROOT

IMAGE = "europe-west4-docker.pkg.dev/my-project/paranmt/paranmt-gpu:0.1.0"
ACCELERATOR = "worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver"
# The GPU submission of docs/dataflow.md, minus the input/output paths (gs:// needs credentials).
DATAFLOW_GPU = ["--runner", "DataflowRunner", "--project", "my-project", "--region", "europe-west4",
                "--temp_location", "gs://my-bucket/tmp", "--staging_location", "gs://my-bucket/staging",
                "--sdk_container_image", IMAGE, "--sdk_location", "container", "--machine_type", "g2-standard-8",
                "--dataflow_service_options", ACCELERATOR, "--max_num_workers", "32"]
SAMPLE = REPO_ROOT / "configs" / "sample"


@pytest.fixture(autouse=True)
def dataflow_runner_installed() -> None:
    pytest.importorskip("apache_beam.runners.dataflow.internal.apiclient",
                        reason="DataflowRunner needs the gcp extra (pip install -e '.[gcp]'; '.[all]' has it)")


def test_the_documented_gpu_job_builds_without_submitting(tmp_path, capsys):
    code = main(["--config", "sample", "--cs", str(SAMPLE / "sample.cs"), "--en", str(SAMPLE / "sample.en"),
                 "--out", str(tmp_path / "out"), "--device", "cuda", "--compute-type", "float16",
                 "--shared-mount", str(SAMPLE), "--shared-mount", str(tmp_path),  # offline: no gs:// bucket
                 *DATAFLOW_GPU, "--dry_run", "True"])
    assert code == 0
    assert "DataflowRunner job built with" in capsys.readouterr().out
    assert not (tmp_path / "out" / "_SUCCESS").exists()  # nothing ran


def test_a_dry_run_on_a_runner_that_would_run_the_job_is_refused(tmp_path, capsys):
    code = main(["--config", "sample", "--cs", str(SAMPLE / "sample.cs"), "--en", str(SAMPLE / "sample.en"),
                 "--out", str(tmp_path / "out"), "--dry_run", "True"])
    assert code == 2 and "--dry_run True builds a DataflowRunner job" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # refused before any work


def test_the_runner_v2_pipeline_holds_every_stage_and_unpickles(tmp_path):
    config = load_config("sample", ["translate.device=cuda", "translate.compute_type=float16"])
    options = PipelineOptions(beam_argv(config.pipeline, [*DATAFLOW_GPU, "--dry_run", "True"]))
    assert ACCELERATOR in options.view_as(GoogleCloudOptions).dataflow_service_options
    assert options.view_as(WorkerOptions).machine_type == "g2-standard-8"
    p = beam.Pipeline(options=options)
    checked = check_run(p, config, [InputSpec.pair(SAMPLE / "sample.cs", SAMPLE / "sample.en")], str(tmp_path / "out"))
    build_pipeline(p, checked, definition(config, checked.specs, checked.plan))
    proto = p.run().job.proto_pipeline  # what DataflowRunner would upload

    names = {t.unique_name.split("/")[0] for t in proto.components.transforms.values()}
    steps = {Step.INGEST, Step.PREFILTER, Step.DEDUP, Step.BACK_TRANSLATE, Step.PAIR_RECORDS, Step.SELECT}
    assert steps <= names, names
    images = {beam_runner_api_pb2.DockerPayload.FromString(env.payload).container_image
              for env in proto.components.environments.values()
              if env.urn == common_urns.environments.DOCKER.urn}
    assert images == {IMAGE}
    # A worker rebuilds the pipeline from this proto: every DoFn and coder must unpickle.
    rebuilt = beam.Pipeline.from_runner_api(proto, beam.runners.DirectRunner(), options)
    def labels(pipeline_proto):
        return sorted(t.unique_name for t in pipeline_proto.components.transforms.values())

    assert labels(rebuilt.to_runner_api()) == labels(proto)


def _pins() -> dict[str, str]:
    lines = (REPO_ROOT / "constraints.txt").read_text().splitlines()
    return dict(line.split("==", 1) for line in map(str.strip, lines) if "==" in line and not line.startswith("#"))


def test_the_worker_image_matches_the_launcher():
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    base = re.search(r"^ARG BEAM_IMAGE=apache/beam_python(\d+)\.(\d+)_sdk:([\d.]+)$", dockerfile, re.M)
    assert base, "the Dockerfile's base image is Beam's Python SDK image"
    assert (int(base[1]), int(base[2])) == sys.version_info[:2]  # the same Python as the launcher
    assert base[3] == beam.__version__
    assert f'"apache-beam=={base[3]}"' in (REPO_ROOT / "pyproject.toml").read_text()
    # The image installs the project under constraints.txt (torch left to PyPI's CUDA build), so numpy, pyarrow
    # and protobuf are the launcher's pins.
    assert re.search(r"COPY constraints\.txt ", dockerfile) and "PIP_CONSTRAINT=/tmp/constraints.txt pip install" \
        in dockerfile
    assert re.search(r"grep -v '\^torch==' ", dockerfile)
    for package in ("numpy", "pyarrow", "protobuf"):
        assert _pins()[package] == version(package), package


def test_docs_give_the_dry_run_and_the_flink_and_spark_commands():
    text = (REPO_ROOT / "docs" / "dataflow.md").read_text()
    for needle in ("--dry_run True", "--runner PortableRunner", "--environment_type DOCKER", "job-server",
                   "--job_endpoint"):
        assert needle in text, needle
