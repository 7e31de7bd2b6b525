"""One rule for every run folder: its layout (every path a run reads or writes under it), one run owning it at a time
(``<out>/_LOCK``), what makes two runs the same run (its definition, ``<out>/definition.json``), resume or refuse,
its markers (:func:`write_marker`), the outputs' staging (:func:`clear_staging`, then :func:`finalize` once the job
succeeded) and the code version written into outputs' metadata."""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import os
import socket
import subprocess
from collections.abc import Iterator, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from configs.out_paths import make_out_folder, out_folder_problem, remove_created
from configs.schema import ParaNMTConfig, PipelineConfig
from paranmt.core.run_definition import (
    DEFINITION_FILE,
    check_same_run,
    definition_text,
    run_definition,
)
from paranmt.core.run_layout import (  # the layout's one home
    CACHE_DIR,
    CARD_FILE,
    LEXICON_DIR,
    LOCK_FILE,
    OUTPUTS,
    REPORT_DIR,
    SCORER_DIR,
    STAGING,
    SUCCESS_FILE,
    SUMMARY_FILE,
)
from pipeline.disk_space import room_for
from pipeline.inputs.files import InputError
from pipeline.inputs.plan import InputSpec, ReadPlan, recorded_inputs
from pipeline.outputs.run_lock import RunFolderBusy, take_lock
from translate.cpu_kernel import run_kernel

if TYPE_CHECKING:
    from pydantic import JsonValue

log = logging.getLogger(__name__)


def code_version() -> str:
    """``<package version>+g<commit>`` (``PARANMT_CODE_VERSION`` overrides, e.g. in a container image)."""
    if os.environ.get("PARANMT_CODE_VERSION"):
        return os.environ["PARANMT_CODE_VERSION"]
    try:
        base = version("paranmt")
    except Exception:
        base = "unknown"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=Path(__file__).resolve().parent,
                                capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        return f"{base}+g{commit}" if commit else base
    except Exception:
        return base


def definition(config: ParaNMTConfig, specs: Sequence[InputSpec], plan: ReadPlan) -> dict[str, JsonValue]:
    """What makes two runs the same run: every setting but those a rerun may change, the inputs
    (:func:`pipeline.inputs.plan.recorded_inputs`: the files' names, sizes and content digests, so a path typed
    another way is the same run), and the kernel that translates (a resume on another kernel is another run; none
    when the inputs carry their translations)."""
    inputs = recorded_inputs(specs, plan)
    kernel = None if plan.has_mt else run_kernel(config.translate)
    return run_definition(config, inputs=inputs, translation_kernel=kernel)


def claim_output(output: str, config: ParaNMTConfig, specs: Sequence[InputSpec], plan: ReadPlan, *,
                 overwrite: bool) -> dict[str, JsonValue]:
    """One rule for every run folder (:mod:`paranmt.core.run_definition`): a folder that holds this run is resumed
    — finished translations are reused and the outputs rewritten identically —, one that holds a different run is
    refused unless ``overwrite`` (its outputs are then deleted; the content-addressed translation cache is kept).
    The run's definition (:func:`definition`) is written to ``<output>/definition.json`` before any work, and
    returned: the outputs' metadata records it."""
    current = definition(config, specs, plan)
    path = FileSystems.join(output, DEFINITION_FILE)
    if FileSystems.exists(path):
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
            recorded = handle.read().decode("utf-8", errors="replace")
        if check_same_run(recorded, path, current, overwrite=overwrite):
            stale = [FileSystems.join(output, name) for name in (*OUTPUTS, LEXICON_DIR, SCORER_DIR, SUMMARY_FILE,
                                                                 SUCCESS_FILE, CARD_FILE, REPORT_DIR)]
            FileSystems.delete([p for p in stale if FileSystems.exists(p)])
    write_marker(output, DEFINITION_FILE, definition_text(current))  # FileSystems makes the folder
    return current


def cached_chunk_path(root: str, model_folder: str, name: str) -> str:
    """A cached chunk's file, ``<root>/translations/<model>/<name>.parquet``: the one layout the cache writes and
    the Ctrl-C line counts (``*`` for either part matches them all)."""
    return FileSystems.join(root, "translations", model_folder, f"{name}.parquet")


def cache_root(pipeline_config: PipelineConfig, output: str) -> str:
    """Where a run's translation cache lives: ``pipeline.cache_dir``, else ``<output>/cache``."""
    return pipeline_config.cache_dir or FileSystems.join(output, CACHE_DIR)


def interrupted_line(pipeline_config: PipelineConfig, output: str) -> str:
    """What a Ctrl-C'd run kept: the translated chunks in its cache (a rerun reuses them)."""
    if not pipeline_config.translation_cache:
        return "interrupted; the translation cache is off, so a rerun translates again — rerun the same command"
    root = cache_root(pipeline_config, output)
    try:
        chunks = len(FileSystems.match([cached_chunk_path(root, "*", "*")])[0].metadata_list)
    except Exception:  # no cache folder yet (or an unreachable one): nothing was kept there
        chunks = 0
    return (f"interrupted; {chunks} chunk{'' if chunks == 1 else 's'} translated {'is' if chunks == 1 else 'are'} "
            f"kept{f' in {root}' if chunks else ''} — rerun the same command to resume")


def write_marker(output: str, name: str = SUCCESS_FILE, text: str = "") -> str:
    """``<output>/<name>`` holding ``text``: the run's definition (``definition.json``), its ``summary.json``, or
    ``_SUCCESS`` once its checks held. Written under a temporary name and renamed, so a full disk leaves no
    half-written marker."""
    path = FileSystems.join(output, name)
    partial = f"{path}.partial"
    data = text.encode("utf-8")
    with room_for(path, name, lambda: len(data)):
        try:
            handle = FileSystems.create(partial, compression_type=CompressionTypes.UNCOMPRESSED)
            try:
                handle.write(data)
            finally:
                handle.close()
        except OSError:
            with contextlib.suppress(Exception):
                FileSystems.delete([partial])
            raise
        FileSystems.rename([partial], [path])  # replaces: os.rename locally, copy-and-delete on an object store
    return path


# ------------------------------------------------------------------------------------------------ ownership


@contextlib.contextmanager
def own_output(output: str) -> Iterator[None]:
    """Hold ``output`` for this run: a local folder is created (every ancestor too) and locked exclusively by
    ``<output>/_LOCK``, which names the holder (pid, host, start time) while the run lives; a second run into the
    same folder is refused at once with :class:`RunFolderBusy`. A folder this call created is removed again when
    the run fails before it wrote its definition, so a bad argument leaves nothing behind.

    Object stores (gs://, s3://) have no locks: nothing is held there and a warning says so."""
    if FileSystems.get_scheme(output) not in (None, "file"):
        log.warning("%s is on an object store, which has no locks: make sure one run writes there at a time", output)
        yield
        return
    folder = Path(output.removeprefix("file://"))
    created: list[Path] = []
    try:
        created = make_out_folder(folder)
        fd = take_lock(str(folder / LOCK_FILE))
    except RunFolderBusy:
        raise
    except OSError as error:
        remove_created(created)
        raise InputError(out_folder_problem(output, error)) from None
    try:
        started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": started}).encode(), 0)
        yield
    except BaseException:
        if created and not (folder / DEFINITION_FILE).exists():  # failed before any work: leave nothing behind
            with contextlib.suppress(OSError):
                os.unlink(folder / LOCK_FILE)  # before the unlock: a waiting open then sees a replaced file
            remove_created(created)
        raise
    finally:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)  # a finished folder names no holder (and stays byte-identical across reruns)
        os.close(fd)


# ---- the outputs' staging: a run writes under _staging/ and renames into place once the job succeeded


def list_files(directory: str, pattern: str = "*") -> list[str]:
    """Sorted paths matching ``pattern`` in ``directory`` (any Beam FileSystems location); [] if there is none."""

    try:
        matched = FileSystems.match([FileSystems.join(directory, pattern)])[0].metadata_list
    except Exception:
        return []
    return sorted(m.path for m in matched)


def _delete(paths: list[str]) -> None:
    if paths:
        FileSystems.delete(paths)


def _mkdirs(path: str) -> None:
    try:
        FileSystems.mkdirs(path)
    except OSError:
        pass  # exists (or an object store, where folders are implicit)
    except Exception as error:  # BeamIOError wraps "already exists" on some file systems
        if "exist" not in str(error).lower():
            raise


def clear_staging(output: str) -> str:
    """Remove a stale staging folder (a killed run's), the success marker and the dataset card (both claim a
    finished run: a run killed from here on leaves neither); return the staging path."""
    staging = FileSystems.join(output, STAGING)
    if FileSystems.exists(staging):
        FileSystems.delete([staging])
    for name in (SUCCESS_FILE, CARD_FILE):
        marker = FileSystems.join(output, name)
        if FileSystems.exists(marker):
            FileSystems.delete([marker])
    _mkdirs(output)
    return staging


def finalize(output: str, names: Sequence[str] = OUTPUTS) -> dict[str, list[str]]:
    """Move ``<output>/_staging/<name>/*`` to ``<output>/<name>/`` for every output name, replacing what was
    there (an output the run did not stage, e.g. ``train/`` of an earlier scored run, is removed)."""
    staging = FileSystems.join(output, STAGING)
    moved: dict[str, list[str]] = {}
    for name in names:
        final_dir = FileSystems.join(output, name)
        staged = list_files(FileSystems.join(staging, name))
        _delete(list_files(final_dir))
        if not staged:
            if FileSystems.exists(final_dir):
                FileSystems.delete([final_dir])
            continue
        _mkdirs(final_dir)
        targets = [FileSystems.join(final_dir, p.rstrip("/").rsplit("/", 1)[-1]) for p in staged]
        FileSystems.rename(staged, targets)
        moved[name] = targets
    if FileSystems.exists(staging):
        FileSystems.delete([staging])
    return moved
