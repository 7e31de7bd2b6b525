"""The Beam-free cores of the corpus pipeline: planning and reading, decoding, pre-filter, dedup, tokeniser,
configuration and Beam options; and that every DoFn/PTransform of the pipeline pickles."""

from __future__ import annotations

import gzip
import json
import pickle
from pathlib import Path

import cloudpickle
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs import load_config
from configs.schema import PipelineConfig, TranslateConfig
from core import pair_schema as S
from core.pair_schema import Reason
from core.text import TextProcessor
from pipeline.backtranslate import BackTranslateRows, TranslationCache, apply_translation, cache_chunk
from pipeline.ingest import DecodeRecords, Ingest, decode_record
from pipeline.input_files import InputError, index_lines
from pipeline.input_plan import InputSpec, MisalignedInputError, plan_reads
from pipeline.input_reading import read_task
from pipeline.options import beam_argv
from pipeline.prefilter import (
    Dedup,
    PairRecords,
    PrefilterOptions,
    PrefilterRows,
    pair_record,
    pick_duplicates,
    prefilter_row,
)
from pipeline.write import DEADLETTER_SCHEMA, REJECTED_SCHEMA, WriteParquetShards, records_to_table, shard_of
from tests.conftest import read_lines, shared_data

pytestmark = pytest.mark.timeout(120)

CAP, KEEP = 10_000, 64


def _read_all(plan, cap=CAP, keep=KEEP):
    return [r for task in plan.tasks for r in read_task(task, cap, keep)]


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# ------------------------------------------------------------------------------------------- pair files


def test_index_lines_counts_and_offsets(tmp_path):
    lines = [f"line {i}".encode() for i in range(1, 26)]
    path = _write(tmp_path / "a.cs", b"\n".join(lines))  # no final newline: the last line still counts
    index = index_lines(str(path), every=10)
    assert index.lines == 25
    data = path.read_bytes()
    assert [data[o:].split(b"\n", 1)[0] for o in index.offsets] == [b"line 1", b"line 11", b"line 21"]
    assert index_lines(str(_write(tmp_path / "b.cs", b"x\ny\n")), 1).offsets == (0, 2)
    assert index_lines(str(_write(tmp_path / "e.cs", b"")), 10).lines == 0


def test_pair_chunks_seek_and_cover_every_line_once(tmp_path):
    n = 2345
    cs = _write(tmp_path / "c.cs", "".join(f"věta {i}\n" for i in range(1, n + 1)).encode())
    en = _write(tmp_path / "c.en", "".join(f"sentence {i}\r\n" for i in range(1, n + 1)).encode())
    config = PipelineConfig(chunk_lines=500, index_every=100, min_splits=4)
    plan = plan_reads([InputSpec.pair(cs, en)], config)
    assert len(plan.tasks) == 5 and plan.expected_rows == n and not plan.sequential
    records = _read_all(plan)
    assert [r["id"] for r in records] == [f"c:L{i:012d}" for i in range(1, n + 1)]
    assert records[1233]["cs"] == "věta 1234".encode() and records[1233]["en"] == b"sentence 1234"


def test_misaligned_pair_files_error_names_both_files_and_counts(tmp_path):
    cs = _write(tmp_path / "x.cs", b"a\nb\nc\n")
    en = _write(tmp_path / "x.en", b"a\nb\n")
    with pytest.raises(MisalignedInputError) as error:
        plan_reads([InputSpec.pair(cs, en)], PipelineConfig())
    message = str(error.value)
    assert f"{cs} has 3 lines" in message and f"{en} has 2 lines" in message and "allow_misaligned" in message
    plan = plan_reads([InputSpec.pair(cs, en)], PipelineConfig(allow_misaligned=True))
    records = _read_all(plan)
    assert len(records) == 3 and plan.expected_rows == 3
    tag, dead = decode_record(records[2], InputSpec.pair(cs, en), CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == Reason.MISALIGNED and "has no line 3" in dead["error"]
    assert dead["raw"] == b"c"


def test_gzip_pair_files_are_one_sequential_task(tmp_path):
    cs = tmp_path / "z.cs.gz"
    en = tmp_path / "z.en.gz"
    cs.write_bytes(gzip.compress(b"".join(f"a {i}\n".encode() for i in range(3000))))
    en.write_bytes(gzip.compress(b"".join(f"b {i}\n".encode() for i in range(3000))))
    plan = plan_reads([InputSpec.pair(cs, en)], PipelineConfig(chunk_lines=100, index_every=10))
    assert len(plan.tasks) == 1 and plan.sequential and plan.expected_rows == 3000
    records = _read_all(plan)
    assert len(records) == 3000 and records[-1]["id"] == "z:L000000003000" and records[-1]["en"] == b"b 2999"
    with pytest.raises(MisalignedInputError):
        en.write_bytes(gzip.compress(b"b\n"))
        plan_reads([InputSpec.pair(cs, en)], PipelineConfig())


def test_limit_takes_the_first_rows_across_inputs(tmp_path):
    a = [_write(tmp_path / f"a.{s}", b"1\n2\n3\n") for s in ("cs", "en")]
    b = [_write(tmp_path / f"b.{s}", b"4\n5\n6\n") for s in ("cs", "en")]
    plan = plan_reads([InputSpec.pair(*a), InputSpec.pair(*b)], PipelineConfig(limit=4))
    assert [r["id"] for r in _read_all(plan)] == ["a:L000000000001", "a:L000000000002", "a:L000000000003",
                                                   "b:L000000000001"]
    assert plan.expected_rows == 4


def test_missing_input_and_mixed_mt_are_errors(tmp_path):
    en = _write(tmp_path / "m.en", b"x\n")
    with pytest.raises(InputError, match="does not exist"):
        plan_reads([InputSpec.pair(tmp_path / "nope.cs", en)], PipelineConfig())
    with pytest.raises(InputError, match="matches no file"):
        plan_reads([InputSpec.tsv(tmp_path / "*.tsv")], PipelineConfig())
    tsv = _write(tmp_path / "t.tsv", b"a\tb\tc\n")
    with pytest.raises(InputError, match="machine-translation column"):
        plan_reads([InputSpec.pair(en, en), InputSpec.tsv(tsv, mt=2)], PipelineConfig())


# -------------------------------------------------------------------------------------- byte ranges


@pytest.mark.parametrize("split", [1, 7, 100, 1000, 1 << 20])
def test_byte_ranges_own_the_lines_that_start_in_them(tmp_path, split):
    lines = [f"cs {i} {'x' * (i % 97)}\ten {i}".encode() for i in range(300)]
    lines[17] = b""  # an empty line is a line too
    data = b"\n".join(lines) + b"\n"
    path = _write(tmp_path / "corpus.tsv", data)
    base = plan_reads([InputSpec.tsv(path)], PipelineConfig()).tasks[0]
    tasks = [dict(base, start=s, end=min(s + split, len(data))) for s in range(0, len(data), split)]
    records = [r for task in tasks for r in read_task(task, CAP, KEEP)]
    starts = [0] + [i + 1 for i, b in enumerate(data[:-1]) if b == 10]
    assert [r["id"] for r in records] == [f"corpus.tsv:B{s:012d}" for s in starts]
    assert [r["line"] for r in records] == lines


def test_large_tsv_is_split_into_byte_ranges(tmp_path):
    data = b"".join(f"cs {i}\ten {i}\n".encode() for i in range(30_000))
    path = _write(tmp_path / "big.tsv", data)
    plan = plan_reads([InputSpec.tsv(path)], PipelineConfig(split_bytes=100_000))
    # At most split_bytes per task, and at least min_splits tasks but none under 64 KiB.
    assert len(plan.tasks) == -(-len(data) // (1 << 16)) == 8
    assert len(_read_all(plan)) == 30_000


def test_over_long_lines_are_never_held_whole(tmp_path):
    long = b"y" * 100_000
    path = _write(tmp_path / "l.tsv", b"a\tb\n" + long + b"\tz\n" + b"c\td")
    plan = plan_reads([InputSpec.tsv(path)], PipelineConfig())
    records = _read_all(plan)
    assert [r["line"] for r in records] == [b"a\tb", long[:KEEP], b"c\td"]
    tag, dead = decode_record(records[1], InputSpec.tsv(path), CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == Reason.UNPARSEABLE
    assert dead["raw_bytes"] == 100_002 and dead["raw_truncated"] and "max_line_bytes" in dead["error"]


def test_tsv_header_and_columns(tmp_path):
    path = _write(tmp_path / "h.tsv", b"en\tcs\tmt\tscore\nHello.\tAhoj.\tHi.\t-0.5\nBad\n")
    spec = InputSpec.tsv(path, cs=1, en=0, mt=2, mt_score=3)
    plan = plan_reads([spec], PipelineConfig(tsv_header=True))
    decoded = [decode_record(r, spec, CAP, KEEP) for r in _read_all(plan)]
    assert decoded[0] == ("row", {"id": "h.tsv:B000000000015", "source": "h.tsv", "cs": "Ahoj.", "en": "Hello.",
                                  "mt": "Hi.", "mt_score": -0.5})
    assert decoded[1][0] == "deadletter" and "1 field" in decoded[1][1]["error"]


def test_jsonl_decoding_dead_letters(tmp_path):
    lines = [json.dumps({"cs": "Ahoj.", "en": "Hello."}), "{not json", json.dumps(["a"]), json.dumps({"cs": "x"}),
             '{"cs": "\\ud800", "en": "y"}', "", json.dumps({"cs": 1, "en": "y"})]
    path = _write(tmp_path / "j.jsonl", "\n".join(lines).encode() + b"\n\xff\n")
    spec = InputSpec.jsonl(path)
    decoded = [decode_record(r, spec, CAP, KEEP) for r in _read_all(plan_reads([spec], PipelineConfig()))]
    assert decoded[0][0] == "row" and decoded[0][1]["cs"] == "Ahoj."
    reasons = [d[1]["reason"] for d in decoded[1:]]
    assert reasons == ["unparseable", "unparseable", "unparseable", "invalid_utf8", "unparseable", "unparseable",
                       "invalid_utf8"]


def test_parquet_input_by_row_group(tmp_path):
    table = pa.table({"cs": ["a", None, "c"], "en": ["x", "y", "z"], "mt": ["1", "2", "3"]})
    path = tmp_path / "p.parquet"
    pq.write_table(table, path, row_group_size=2)
    spec = InputSpec.parquet(path, mt="mt")
    plan = plan_reads([spec], PipelineConfig())
    assert len(plan.tasks) == 2 and plan.has_mt
    decoded = [decode_record(r, spec, CAP, KEEP) for r in _read_all(plan)]
    assert [d[1]["id"] for d in decoded] == ["p.parquet:R000000000000", "p.parquet:R000000000001",
                                             "p.parquet:R000000000002"]
    assert decoded[1][0] == "deadletter" and "null" in decoded[1][1]["error"]
    with pytest.raises(InputError, match="no column"):
        plan_reads([InputSpec.parquet(path, mt="nope")], PipelineConfig())


def test_invalid_utf8_is_a_dead_letter_with_position(tmp_path):
    cs = _write(tmp_path / "u.cs", b"dobr\xc3 den\n")
    en = _write(tmp_path / "u.en", b"good day\n")
    spec = InputSpec.pair(cs, en)
    tag, dead = decode_record(_read_all(plan_reads([spec], PipelineConfig()))[0], spec, CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == "invalid_utf8" and "cs line at byte 4" in dead["error"]
    assert dead["raw"] == b"dobr\xc3 den" and dead["id"] == "u:L000000000001"


# ------------------------------------------------------------------------------------------ pre-filter


def _row(cs: str, en: str, i: int = 1) -> dict:
    return {"id": f"t:L{i:012d}", "source": "t", "cs": cs, "en": en, "mt": None, "mt_score": None}


@pytest.mark.parametrize(("cs", "en", "reason"), [
    ("", "Hello.", Reason.EMPTY_SIDE),
    ("Ahoj.", "   ", Reason.EMPTY_SIDE),
    ("Ahoj\x07 světe.", "Hello world.", Reason.GARBAGE),
    ("Ahoj.", "Hello\tworld.", Reason.GARBAGE),
    ("!!! ??? ...", "Hello.", Reason.GARBAGE),
    ("Tom.", "tom .", Reason.UNTRANSLATED),
    (" ".join(["slovo"] * 250), " ".join(["word"] * 250), Reason.SOURCE_TOO_LONG),
    ("Ano.", "Yes, I will certainly do that for you tomorrow morning.", Reason.LENGTH_RATIO),
])
def test_prefilter_reasons(cs, en, reason):
    kept, rejected = prefilter_row(_row(cs, en), TextProcessor(), PrefilterOptions())
    assert kept is None and rejected["reason"] == reason and rejected["stage"] == "prefilter"
    assert rejected["detail"] and rejected["cs"] == cs and rejected["en"] == en


def test_prefilter_keeps_normal_pairs_with_tokens():
    kept, rejected = prefilter_row(_row("„Dobrý den,“ řekl Dr. Novák.", '"Good morning," said Dr. Novak.'),
                                   TextProcessor(), PrefilterOptions())
    assert rejected is None
    assert kept["en_tokens"] == ['"', "Good", "morning", ",", '"', "said", "Dr.", "Novak", "."]
    assert len(kept["dedup_key"]) == 16


def test_dedup_keeps_the_smallest_id_on_the_normalised_pair():
    text = TextProcessor()
    rows = [prefilter_row(_row("Ahoj,  světe!", "Hello, world!", i), text, PrefilterOptions())[0]
            for i in (7, 3)]
    rows.append(prefilter_row(_row("Ahoj, světe !", "Hello , world!", 9), text, PrefilterOptions())[0])
    assert len({r["dedup_key"] for r in rows}) == 1
    kept, duplicates = pick_duplicates(rows)
    assert kept["id"] == "t:L000000000003"
    assert [(d["id"], d["reason"], d["detail"]) for d in duplicates] == [
        ("t:L000000000007", "duplicate", "duplicate of t:L000000000003"),
        ("t:L000000000009", "duplicate", "duplicate of t:L000000000003")]


def test_pair_record_and_translation_outcomes():
    text = TextProcessor()
    row, _ = prefilter_row(_row("Ahoj.", "Hello."), text, PrefilterOptions())
    fields = {"status": "ok", "hypothesis": "Hi there.", "score": -0.25, "hit_length_cap": True, "error": None}
    translated, rejected = apply_translation(row, fields, "model-x")
    assert rejected is None
    pair, rejected = pair_record(translated, text, "model-x")
    assert rejected is None and set(pair) == set(S.PAIRS_SCHEMA.names)
    assert pair["mt_tokens"] == ["Hi", "there", "."] and pair["translation_score"] == -0.25
    assert pair["hit_length_cap"] is True and pair["nmt_model_id"] == "model-x" and pair["keep"] is None
    table = records_to_table([pair])
    S.check_schema(table.schema)
    for status, reason in (("empty", "translation_empty"), ("too_long", "translation_too_long"),
                           ("failed", "translation_failed")):
        _, rejected = apply_translation(row, {**fields, "status": status, "error": "boom"}, "m")
        assert rejected["reason"] == reason and rejected["stage"] == "translate"
    _, rejected = pair_record({**translated, "mt": " "}, text, "m")
    assert rejected["reason"] == "translation_empty"


def test_fast_tokeniser_matches_stock_sacremoses_on_real_text():
    bitext = shared_data("bitext")
    cs = read_lines(bitext / "newstest2013.cs")[:1500] + read_lines(bitext / "tatoeba.cs")[:500]
    en = read_lines(bitext / "newstest2013.en")[:1500] + read_lines(bitext / "tatoeba.en")[:500]
    fast, stock = TextProcessor(fast=True), TextProcessor(fast=False)
    for lang, lines in (("cs", cs), ("en", en)):
        assert [fast.tokenize(x, lang) for x in lines] == [stock.tokenize(x, lang) for x in lines]
    tricky = ["U.S.A. a.m. No. 5 vs. 3.5 e.g. Mr. Smith", "ČR. Praha... „uvozovky“ – 3:00 p.m."]
    for lang in ("cs", "en"):
        assert [fast.tokenize(x, lang) for x in tricky] == [stock.tokenize(x, lang) for x in tricky]


# ----------------------------------------------------------------------------------- config and options


def test_pipeline_config_loads_with_overrides_and_flags():
    config = load_config("sample", ["pipeline.num_shards=8", "pipeline.limit=5"], {"pipeline.limit": 3})
    assert config.pipeline.num_shards == 8 and config.pipeline.limit == 3  # flags beat --set
    from configs import ConfigError

    with pytest.raises(ConfigError, match=r"pipeline\.num_shardz"):
        load_config(None, ["pipeline.num_shardz=2"])
    with pytest.raises(ConfigError, match=r"pipeline\.max_length_ratio"):
        load_config(None, ["pipeline.max_length_ratio=0.5"])


def test_beam_options_precedence():
    config = PipelineConfig(beam_options={"direct_num_workers": 4, "direct_running_mode": "multi_processing"})
    argv = beam_argv(config, ["--direct_num_workers=2"])
    assert argv == ["--runner=FnApiRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
    assert beam_argv(config, ["--runner", "DataflowRunner"])[0:1] == ["--direct_num_workers=4"]


def test_cache_chunks_are_fixed_size_input_ranges():
    assert cache_chunk("corpus:L000000012345", 500, 1 << 16) == "corpus:L24"
    assert cache_chunk("a:b.tsv:B000003145728", 500, 1 << 16) == "a:b.tsv:B48"
    cache = TranslationCache("/c", "m/1", (("beam_size", 12),))
    assert cache.path(["a", "b"]) != cache.path(["ab"]) and "/translations/m_1/" in cache.path(["a"])
    assert cache.path(["a"]) != TranslationCache("/c", "m/1", (("beam_size", 4),)).path(["a"])


def test_shards_are_stable():
    assert [shard_of(f"x:L{i:012d}", 4) for i in range(5)] == [shard_of(f"x:L{i:012d}", 4) for i in range(5)]
    assert {shard_of(f"x:L{i:012d}", 4) for i in range(100)} == {0, 1, 2, 3}


def test_every_dofn_and_transform_pickles(tmp_path):
    spec = InputSpec.pair(_write(tmp_path / "a.cs", b"x\n"), _write(tmp_path / "a.en", b"y\n"))
    text = TextProcessor()
    text.tokenize("Ahoj.", "cs")  # loaded sacremoses objects are dropped when pickled
    objects = [
        Ingest([spec], PipelineConfig()), DecodeRecords([spec], CAP, KEEP), PrefilterRows(PrefilterOptions()),
        Dedup(), PairRecords("m"), text,
        BackTranslateRows(TranslateConfig(), "m", TranslationCache("/c", "m", ())),
        WriteParquetShards(str(tmp_path), "pairs", S.PAIRS_SCHEMA, num_shards=2),
        WriteParquetShards(str(tmp_path), "rejected", REJECTED_SCHEMA, num_shards=1),
        WriteParquetShards(str(tmp_path), "deadletter", DEADLETTER_SCHEMA, num_shards=1),
    ]
    # The DoFns the transforms build in expand() (the multi-process end-to-end test also runs them all).
    from pipeline import backtranslate, ingest, prefilter, write

    objects += [
        ingest._ReadTask(CAP, KEEP), prefilter._PickDuplicates(),
        backtranslate._LookupChunk(TranslationCache("/c", "m", ())), backtranslate._StoreChunk(),
        backtranslate._ApplyTranslation("m"),
        write._KeyByShard(2, "written_pairs"),
        write._WriteShard(str(tmp_path), "pairs", 2, S.PAIRS_SCHEMA, 10, "zstd", None),
    ]
    for obj in objects:
        assert type(pickle.loads(pickle.dumps(obj))) is type(obj)
        assert type(cloudpickle.loads(cloudpickle.dumps(obj))) is type(obj)
    assert pickle.loads(pickle.dumps(text)).tokenize("Ahoj.", "cs") == ["Ahoj", "."]
