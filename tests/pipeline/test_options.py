"""The pipeline section of the configuration and how Beam options are assembled."""

from __future__ import annotations

import pytest

from configs import load_config
from configs.schema import PipelineConfig
from pipeline.options import beam_argv


def test_pipeline_config_loads_with_overrides_and_flags():
    config = load_config("sample", ["pipeline.num_shards=8", "pipeline.limit=5"], {"pipeline.limit": 3})
    assert config.pipeline.num_shards == 8 and config.pipeline.limit == 3  # flags beat --set
    from configs import ConfigError

    with pytest.raises(ConfigError, match=r"pipeline\.num_shardz"):
        load_config(None, ["pipeline.num_shardz=2"])
    with pytest.raises(ConfigError, match=r"pipeline\.max_length_ratio moved to the prefilter section"):
        load_config(None, ["pipeline.max_length_ratio=0.5"])
    with pytest.raises(ConfigError, match=r"prefilter\.rules"):
        load_config(None, ["prefilter.rules=[{a: 1, b: 2}]"])


def test_beam_options_precedence():
    config = PipelineConfig(beam_options={"direct_num_workers": 4, "direct_running_mode": "multi_processing"})
    argv = beam_argv(config, ["--direct_num_workers=2"])
    assert argv == ["--runner=FnApiRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
    assert beam_argv(config, ["--runner", "DataflowRunner"])[0:1] == ["--direct_num_workers=4"]
