"""Every DoFn and PTransform of the pipeline pickles (what a remote runner does to them)."""

from __future__ import annotations

import pickle

import cloudpickle

from configs.schema import ParaNMTConfig, PipelineConfig, TranslateConfig
from filters.plugins import build_scores
from filters.rules import prefilter_rules
from paranmt.core import pair_schema as S
from paranmt.core.text import TextProcessor
from pipeline.inputs.plan import InputSpec
from pipeline.stages.backtranslate import BackTranslate, TranslationSettings
from pipeline.stages.dedup import Dedup
from pipeline.stages.ingest import DecodeRecords, Ingest
from pipeline.stages.pair_records import PairRecords
from pipeline.stages.prefilter import PrefilterRows
from pipeline.stages.write import WriteParquetShards
from tests.support.input_helpers import CAP, KEEP, write_file

# -------------------------------------------------------------------------------------- byte ranges


# ----------------------------------------------------------------------------------- config and options


def test_every_dofn_and_transform_pickles(tmp_path):
    spec = InputSpec.pair(write_file(tmp_path / "a.cs", b"x\n"), write_file(tmp_path / "a.en", b"y\n"))
    text = TextProcessor()
    text.tokenize("Ahoj.", "cs")  # loaded sacremoses objects are dropped when pickled
    objects = [
        Ingest([spec], PipelineConfig()), DecodeRecords([spec], CAP, KEEP),
        PrefilterRows(prefilter_rules(ParaNMTConfig())),
        *build_scores(["sentence_transformer"]),
        Dedup(), PairRecords("m"), text,
        BackTranslate(TranslationSettings(TranslateConfig(), PipelineConfig(), "m", "/c")),
        WriteParquetShards(str(tmp_path), "pairs", S.PAIRS_SCHEMA, num_shards=2),
        WriteParquetShards(str(tmp_path), "rejected", S.REJECTED_SCHEMA, num_shards=1),
        WriteParquetShards(str(tmp_path), "deadletter", S.DEADLETTER_SCHEMA, num_shards=1),
    ]
    # The DoFns the transforms build in expand() (the multi-process end-to-end test also runs them all).
    from pipeline.stages import backtranslate, dedup, ingest, write

    settings = TranslationSettings(TranslateConfig(), PipelineConfig(), "m", "/c")
    objects += [
        ingest._ReadTask(CAP, KEEP), dedup._PickDuplicates(),
        backtranslate._LookupChunk(settings), backtranslate._StoreChunk(),
        backtranslate._ApplyTranslation(), backtranslate._KeyByChunk(settings),
        write._KeyByShard(2, "written_pairs"),
        write._WriteShard(str(tmp_path), "pairs", 2, S.PAIRS_SCHEMA, 10, "zstd", None),
    ]
    for obj in objects:
        assert type(pickle.loads(pickle.dumps(obj))) is type(obj)
        assert type(cloudpickle.loads(cloudpickle.dumps(obj))) is type(obj)
    assert pickle.loads(pickle.dumps(text)).tokenize("Ahoj.", "cs") == ["Ahoj", "."]
