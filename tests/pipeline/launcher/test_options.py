"""The pipeline section of the configuration and the Beam options the launcher sets
(:mod:`pipeline.launcher.options`)."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from apache_beam.options.pipeline_options import PipelineOptions

from configs import load_config
from pipeline.launcher.options import WORKER_OPTIONS_FILE, beam_checks_speak_last, local_worker_logging


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
