"""What the launcher settles before Beam loads: the Beam argument list, where the runner's workers run, and the
paths they are given.

Beam-free (``paranmt run`` calls it before it imports Beam, so a refusal is one line in a second or so):

- :func:`beam_argv` -- ``pipeline.runner`` and ``pipeline.beam_options`` of the config, then the command line's
  Beam options, which win;
- :func:`workers_apart` -- why the runner's workers cannot read this machine's disk (DataflowRunner, a job
  service or cluster on another machine, Docker workers), or None;
- :func:`paths_for_workers` -- every local input, output, model and scorer path made absolute, the path every
  worker is given: a worker process runs in a directory of its own (a portable worker pool started elsewhere),
  where a relative path names another file or none. For workers apart from this machine a local path is refused
  in one line naming the flag and the fix, unless it lies in a folder every worker mounts (``shared_mounts``).
"""

from __future__ import annotations

import dataclasses
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configs.schema import NO_CUDA_DEVICE
from paranmt.core.errors import ParanmtError

if TYPE_CHECKING:  # only annotations: the input plan module imports Beam
    from configs.schema import ParaNMTConfig, PipelineConfig
    from pipeline.inputs.plan import InputSpec

__all__ = [
    "INPUT_FLAGS",
    "LOCAL_RUNNERS",
    "WorkerPathError",
    "beam_argv",
    "beam_option",
    "check_before_beam",
    "check_before_work",
    "paths_for_workers",
    "runner_class_name",
    "worker_path",
    "workers_apart",
]


#: The flag that names each path of an input, by the input's kind.
INPUT_FLAGS = {"pair": ("--cs", "--en", "--mt"), "tsv": ("--tsv",), "jsonl": ("--jsonl",), "parquet": ("--parquet",)}


class WorkerPathError(ParanmtError, ValueError):
    """A path the runner's workers cannot read."""


def _flag_names(args: Sequence[str]) -> set[str]:
    names = set()
    for arg in args:
        if arg.startswith("--"):
            names.add(arg[2:].split("=", 1)[0].replace("-", "_"))
    return names


def beam_argv(config: PipelineConfig, cli_beam_args: Sequence[str]) -> list[str]:
    """The Beam argument list: ``pipeline.runner`` and ``pipeline.beam_options`` first, then the command line's
    own Beam options, which win (a command-line option replaces the config's option of the same name)."""
    given = _flag_names(cli_beam_args)
    argv: list[str] = []
    if "runner" not in given:
        argv.append(f"--runner={config.runner}")
    for name, value in sorted(config.beam_options.items()):
        if name.replace("-", "_") in given:
            continue
        if isinstance(value, bool):
            if value:
                argv.append(f"--{name}")
        elif isinstance(value, list):
            argv.extend(f"--{name}={item}" for item in value)
        else:
            argv.append(f"--{name}={value}")
    return [*argv, *cli_beam_args]


def beam_option(argv: Sequence[str], name: str) -> str | None:
    """The last value of ``--name`` (``--name value`` or ``--name=value``, dashes or underscores) in ``argv``,
    as Beam's parser would take it; None when it is not given."""
    found = None
    for i, arg in enumerate(argv):
        if not arg.startswith("--"):
            continue
        key, eq, value = arg[2:].partition("=")
        if key.replace("-", "_") != name:
            continue
        if eq:
            found = value
        elif i + 1 < len(argv) and not argv[i + 1].startswith("--"):
            found = argv[i + 1]
        else:
            found = "true"  # a bare flag
    return found


def runner_class_name(argv: Sequence[str]) -> str:
    """The runner's class name (``--runner`` may name it by its module path too)."""
    return (beam_option(argv, "runner") or "").rsplit(".", 1)[-1]


#: Runners that execute in (or under) the launcher's process: they get the live line, not metric polling.
LOCAL_RUNNERS = frozenset({"FnApiRunner", "DirectRunner", "BundleBasedDirectRunner", "SwitchingDirectRunner"})

#: What DataflowRunner needs (Beam's own check says the same after it loads, and may first try Google Cloud).
DATAFLOW_REQUIRED = {"project": "--project PROJECT", "region": "--region REGION",
                     "temp_location": "--temp_location gs://BUCKET/tmp"}


def check_before_work(argv: Sequence[str], config: ParaNMTConfig) -> None:
    """The checks that need neither Beam nor torch, answered in one line before either loads: DataflowRunner's
    required options; on a local runner, ``--device cuda`` where this machine has no GPU device at all, and a
    ``--model`` directory that does not exist (:class:`WorkerPathError`, exit status 2). The launcher checks all of
    it again, in depth, once Beam has loaded (the model's card and files, CTranslate2's and torch's view of the
    GPU)."""
    runner = runner_class_name(argv)
    if runner in ("DataflowRunner", "TestDataflowRunner"):
        given = {name: beam_option(argv, name) for name in DATAFLOW_REQUIRED}
        if not given["temp_location"]:
            given["temp_location"] = beam_option(argv, "staging_location")
        if not given["region"]:
            given["region"] = os.environ.get("CLOUDSDK_COMPUTE_REGION")  # Beam's default region, without gcloud
        missing = [name for name, value in given.items() if not value]
        if missing:
            raise WorkerPathError(f"Beam options for {runner}: Missing required option: {', '.join(missing)} (give "
                                  f"{' '.join(DATAFLOW_REQUIRED[name] for name in missing)}; docs/dataflow.md)")
    if runner not in LOCAL_RUNNERS:  # the workers may have the GPU and the model directory the launcher lacks
        return
    if config.translate.device == "cuda" and not _gpu_devices():
        raise WorkerPathError(NO_CUDA_DEVICE.format(why="this machine has no GPU device"))
    model = config.translate.model
    if model is not None and not _is_url(str(model)) and not os.path.isdir(_absolute(model)):
        raise WorkerPathError(f"--model {model}: no such model directory (give a converted model directory, or leave "
                              "--model out for the bundled one)")


def _gpu_devices() -> bool:
    """Whether this machine has a GPU device node (NVIDIA's, or WSL's): without one, neither CTranslate2 nor torch
    can see a CUDA device, and nothing needs loading to say so."""
    return any(Path("/dev").glob("nvidia[0-9]*")) or Path("/dev/dxg").exists()


def _this_machine(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in ("localhost", "0.0.0.0", "::1", "::") or host.startswith("127."):
        return True
    return host == socket.gethostname().lower()  # no name lookup: it may wait on a resolver


def _host(endpoint: str) -> str:
    endpoint = endpoint.split("://", 1)[-1]
    if endpoint.startswith("["):  # [::1]:8099
        return endpoint[1:].split("]", 1)[0]
    return endpoint.rsplit(":", 1)[0] if endpoint.count(":") == 1 else endpoint


def workers_apart(argv: Sequence[str]) -> str | None:
    """Why the workers of the runner ``argv`` names cannot read this machine's disk (words that complete "...:
    give a gs:// URL"), or None where they run here: the local runners, and a portable job service or cluster on
    this machine whose workers are processes (``--environment_type EXTERNAL``, ``PROCESS`` or ``LOOPBACK``)."""
    runner = runner_class_name(argv)
    if runner in ("DataflowRunner", "TestDataflowRunner"):
        return f"{runner}'s workers are Google Cloud machines"
    if runner in ("FlinkRunner", "TestFlinkRunner"):
        master = beam_option(argv, "flink_master") or "[auto]"
        if master not in ("[auto]", "[local]") and not _this_machine(_host(master)):
            return f"the Flink cluster at {master} runs the workers"
    if runner == "SparkRunner":
        master = beam_option(argv, "spark_master_url") or "local[4]"
        if not master.startswith("local") and not _this_machine(_host(master)):
            return f"the Spark cluster at {master} runs the workers"
    if runner in ("PortableRunner", "FlinkRunner", "TestFlinkRunner", "SparkRunner"):
        endpoint = beam_option(argv, "job_endpoint")
        if endpoint and endpoint != "embed" and not _this_machine(_host(endpoint)):
            return f"the job service at {endpoint} is on another machine"
        environment = (beam_option(argv, "environment_type") or "DOCKER").upper()
        if environment == "DOCKER":
            return f"{runner}'s workers run in Docker containers (--environment_type DOCKER, the default)"
    return None


def _is_url(path: str) -> bool:
    return "://" in path


def _absolute(path: str | os.PathLike) -> str:
    return os.path.abspath(os.path.expanduser(str(path)))


def _under(path: str, folders: Sequence[str]) -> bool:
    return any(os.path.commonpath([path, folder]) == folder for folder in folders)


def worker_path(flag: str, path: str | os.PathLike, apart: str | None, shared_mounts: Sequence[str | os.PathLike] = (),
                *, image_path: bool = False) -> str:
    """``path`` (given with ``flag``) as the workers are given it: a URL as it is, a local path absolute; where the
    workers are ``apart`` (:func:`workers_apart`), a local path outside ``shared_mounts`` is
    :class:`WorkerPathError` -- except, with ``image_path``, an absolute one (a path inside the worker image)."""
    text = str(path)
    if _is_url(text):
        return text
    absolute = _absolute(text)
    if apart is None or _under(absolute, [_absolute(folder) for folder in shared_mounts]) \
            or (image_path and os.path.isabs(os.path.expanduser(text))):
        return absolute
    if image_path:
        raise WorkerPathError(f"{flag} {text} is a relative path, but {apart}: give its absolute path inside the "
                              "worker image (docs/dataflow.md), or put it on a mount every worker shares, named "
                              "with --shared-mount FOLDER")
    raise WorkerPathError(f"{flag} {text} is on this machine's disk, but {apart}: give a gs:// or s3:// URL, or a "
                          "path on a mount every worker shares, named with --shared-mount FOLDER")


def check_before_beam(config: ParaNMTConfig, beam_args: Sequence[str], inputs: Sequence[tuple[str, str]],
                      output: str, shared_mounts: Sequence[str | os.PathLike] = ()) -> None:
    """What ``paranmt run`` refuses before Beam loads: the runner's required options, the device, the model
    directory (:func:`check_before_work`) and a local path that the runner's workers cannot read (``inputs``: each
    input path with the flag that named it; the job resolves and checks the same paths again, for the Python API:
    :func:`paths_for_workers`)."""
    argv = beam_argv(config.pipeline, beam_args)
    check_before_work(argv, config)
    apart = workers_apart(argv)
    if apart is None:
        return
    for flag, path in inputs:
        worker_path(flag, path, apart, shared_mounts)
    paths_for_workers(config, [], output, argv, shared_mounts)


def paths_for_workers(
    config: ParaNMTConfig,
    specs: Sequence[InputSpec],
    output: str,
    argv: Sequence[str],
    shared_mounts: Sequence[str | os.PathLike] = (),
) -> tuple[ParaNMTConfig, list[InputSpec], str]:
    """``config``, ``specs`` and ``output`` with every local path absolute: the inputs, ``--out``, the model, its
    vocabulary map, the translation cache and a saved scorer (read by the workers), and the scorer's embeddings,
    word frequencies and evaluation sentences (read here; absolute all the same). URLs (``gs://``, ...) are kept.

    Where the workers are apart from this machine (:func:`workers_apart`), a local path the workers read is
    :class:`WorkerPathError`, one line naming its flag and the fix -- unless it lies in one of ``shared_mounts``
    (folders every worker mounts at the same path). A model or vocabulary map given as an absolute path is taken
    as a path inside the worker image (docs/dataflow.md), a relative one is refused."""
    apart = workers_apart(argv)

    def for_workers(flag: str, path: str | os.PathLike, *, image_path: bool = False) -> str:
        return worker_path(flag, path, apart, shared_mounts, image_path=image_path)

    resolved_specs = []
    for spec in specs:
        paths = tuple(for_workers(flag, path) for flag, path in zip(INPUT_FLAGS[spec.kind], spec.paths, strict=False))
        resolved_specs.append(dataclasses.replace(spec, paths=paths))
    output = for_workers("--out", output)

    updates: dict[str, dict[str, Any]] = {"translate": {}, "pipeline": {}, "score": {}, "select": {}}
    translate, score = config.translate, config.score
    if translate.model is not None:
        updates["translate"]["model"] = Path(for_workers("--model", translate.model, image_path=True))
    if translate.vmap is not None:
        updates["translate"]["vmap"] = Path(for_workers("translate.vmap", translate.vmap, image_path=True))
    if config.pipeline.cache_dir is not None:
        updates["pipeline"]["cache_dir"] = for_workers("--cache-dir", config.pipeline.cache_dir)
    if score.scorer is not None:
        updates["score"]["scorer"] = for_workers("score.scorer", score.scorer)
    for key in ("embeddings", "word_frequencies"):  # read on the launcher (docs/dataflow.md, "Sizing a run")
        value = getattr(score, key)
        if value is not None and not _is_url(str(value)):
            updates["score"][key] = Path(_absolute(value))
    if config.select.exclude_sentences:  # read on the launcher, before any work
        updates["select"]["exclude_sentences"] = [p if _is_url(p) else _absolute(p)
                                                  for p in config.select.exclude_sentences]
    sections = {name: getattr(config, name).model_copy(update=values) for name, values in updates.items() if values}
    return config.model_copy(update=sections), resolved_specs, output

