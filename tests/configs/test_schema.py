"""The config schema: its defaults and per-device budgets, and each validator's rule and message (constructed
directly; tests/configs/test_load_config.py checks how load_config reports them), paths resolved against the YAML
file's folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from configs import ConfigError, load_config
from configs.schema import (
    LexiconConfig,
    ParaNMTConfig,
    PipelineConfig,
    PrefilterConfig,
    ScoreBounds,
    ScoreConfig,
    SelectConfig,
    TrainConfig,
    TranslateConfig,
    check_ordered,
    check_plugin_steps,
)


def test_defaults():
    config = ParaNMTConfig()
    t = config.translate
    assert t.beam_size == 12 and t.nbest == 1
    assert t.model is None and t.backend == "auto" and t.device == "auto" and t.compute_type == "auto"
    assert (t.max_batch_tokens, t.max_batch_sentences, t.max_source_tokens, t.max_decoding_length) == (
        None, None, 200, 256)
    assert (t.batch_tokens("cpu"), t.batch_tokens("cuda")) == (512, 32768), "None: the device's bucket"
    assert t.model_copy(update={"max_batch_tokens": 64}).batch_tokens("cpu") == 64
    # on a GPU the bucket alone bounds a batch: a 32768-token bucket is not cut at 512 sentences
    assert (t.batch_sentences("cpu"), t.batch_sentences("cuda")) == (512, 32768)
    assert t.model_copy(update={"max_batch_sentences": 7}).batch_sentences("cuda") == 7
    p = config.pipeline
    assert p.cache_chunk_lines is None and (p.translation_chunk("cpu"), p.translation_chunk("cuda")) == (500, 4096)
    assert p.model_copy(update={"cache_chunk_lines": 64}).translation_chunk("cuda") == 64
    assert t.threads == 0 and config.seed == 1234


def test_translate_config_direct_construction_validates():
    assert TranslateConfig(beam_size=4, nbest=4).nbest == 4
    with pytest.raises(ValueError, match="nbest"):
        TranslateConfig(beam_size=2, nbest=3)


@pytest.mark.parametrize(("values", "field"), [
    ({"threads": 2, "inter_threads": 3}, "inter_threads (3) cannot exceed threads (2)"),
    ({"threads": 2, "intra_threads": 4}, "intra_threads (4) cannot exceed threads (2)"),
    ({"threads": 4, "inter_threads": 2, "intra_threads": 4}, "inter_threads x intra_threads (2 x 4)"),
    ({"inter_threads": -1}, "inter_threads"),
])
def test_thread_settings_are_validated(values, field):
    with pytest.raises(ValidationError, match=field.replace("(", r"\(").replace(")", r"\)")):
        TranslateConfig(**values)


def test_a_backend_name_that_is_neither_built_in_nor_a_path_is_a_config_error():
    with pytest.raises(ValidationError, match="'ctranslate' is none of auto, ctranslate2, fairseq"):
        TranslateConfig(backend="ctranslate")


def test_within_estimate_settings_are_validated():
    assert load_config(None, []).lexicon.within_estimate == "prior"
    assert load_config(None, ["lexicon.within_estimate=additive", "lexicon.smoothing=0.5"]).lexicon.smoothing == 0.5
    for overrides, shown in ((["lexicon.smoothing=0.5"], "smoothing (0.5) applies to within_estimate 'additive'"),
                             (["lexicon.within_estimate=additive", "lexicon.within_prior=3"], "within_prior (3.0)"),
                             (["lexicon.within_prior=0"], "lexicon.within_prior: Input should be greater than 0"),
                             (["lexicon.within_estimate=bayes"], "lexicon.within_estimate: Input should be")):
        with pytest.raises(ConfigError, match=re.escape(shown)):
            load_config(None, overrides)
    # A full dump (every field written out at its default, e.g. copied from stats.json) loads again.
    assert LexiconConfig(**LexiconConfig().model_dump()) == LexiconConfig()


def test_every_section_forbids_unknown_keys():
    for section in (PipelineConfig, PrefilterConfig, TranslateConfig, ScoreConfig, ScoreBounds, SelectConfig,
                    TrainConfig, LexiconConfig, ParaNMTConfig):
        with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
            section(no_such_key=1)


def test_relative_paths_resolve_against_the_yaml_files_folder(tmp_path):
    context = {"base_dir": tmp_path / "conf"}
    score = ScoreConfig.model_validate({"embeddings": "vectors/glove.txt", "word_frequencies": "/abs/freq.txt",
                                        "scorer": "gs://bucket/scorer.npz"}, context=context)
    assert score.embeddings == tmp_path / "conf" / "vectors" / "glove.txt"
    assert score.word_frequencies == Path("/abs/freq.txt")
    assert score.scorer == "gs://bucket/scorer.npz"  # an object store path stays a string, never resolved locally
    assert ScoreConfig(embeddings="vectors/glove.txt").embeddings == Path("vectors/glove.txt")  # no file: as given
    home = ScoreConfig.model_validate({"embeddings": "~/glove.txt"}, context=context).embeddings
    assert home == Path.home() / "glove.txt"
    select = SelectConfig.model_validate({"exclude_sentences": "sts/*.txt"}, context=context)
    assert select.exclude_sentences == [str(tmp_path / "conf" / "sts" / "*.txt")]  # one string: a list of one
    assert SelectConfig(exclude_sentences=["gs://b/x.txt", "/abs/y.txt"]).exclude_sentences == ["gs://b/x.txt",
                                                                                               "/abs/y.txt"]


def test_training_data_keeps_kumo_and_globs_and_resolves_the_rest(tmp_path):
    context = {"base_dir": tmp_path}
    train = TrainConfig.model_validate({"data": "runs/*/train", "word_vectors": "kumo"}, context=context)
    assert train.data == str(tmp_path / "runs" / "*" / "train") and train.word_vectors == "kumo"
    assert TrainConfig.model_validate({"data": "gs://b/*.parquet"}, context=context).data == "gs://b/*.parquet"
    assert TrainConfig.model_validate({"data": "pairs.tsv"}, context=context).data == tmp_path / "pairs.tsv"


@pytest.mark.parametrize(("text", "parsed"), [
    ("word", (["word"], "concat")),
    (" Word, Trigram ", (["word", "trigram"], "concat")),
    ("word+trigram+lstm", (["word", "trigram", "lstm"], "sum")),
    ("blstm-max", (["blstm-max"], "concat")),
])
def test_model_strings_in_the_papers_notation(text, parsed):
    assert TrainConfig.parse_model(text) == parsed
    assert TrainConfig(model=text).model == text.strip().lower().replace(" ", "")


@pytest.mark.parametrize(("text", "message"), [
    ("word,trigram+lstm", "mixes ',' (concatenation) and '+' (addition); use one"),
    ("", "empty component name"),
    ("word,", "empty component name"),
    ("word,bert", "unknown model component(s) ['bert']; choose from word, trigram"),
    ("word+word", "names a component twice"),
])
def test_a_bad_model_string_says_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        TrainConfig.parse_model(text)
    with pytest.raises(ValidationError, match=re.escape(message)):
        TrainConfig(model=text)


def test_ranges_must_be_ordered():
    check_ordered(None, 0.1)
    check_ordered(0.5, 0.5)
    with pytest.raises(ValueError, match=r"^train\.min_score \(0\.9\) is greater than max_score \(0\.1\)$"):
        check_ordered(0.9, 0.1, ("min_score", "max_score"), "train.")
    with pytest.raises(ValidationError, match=r"min \(0\.8\) is greater than max \(0\.2\)"):
        ScoreBounds(min=0.8, max=0.2)
    with pytest.raises(ValidationError, match=r"min_score \(2\.0\) is greater than max_score \(1\.0\)"):
        TrainConfig(min_score=2, max_score=1)


def test_each_plugin_step_names_one_rule_or_score():
    steps = ["garbage", {"source_target_ratio": {"max_ratio": 3.0}}, {"mypackage.filters:LanguageId": None}]
    assert check_plugin_steps(steps) is steps
    for bad, shown in (({"a": {}, "b": {}}, "item 1: name one rule or score per item"), ("  ", "item 1:"),
                       ({}, "item 1:")):
        with pytest.raises(ValueError, match=re.escape(shown)):
            check_plugin_steps(["garbage", bad])
    with pytest.raises(ValidationError, match="name one rule or score per item"):
        PrefilterConfig(rules=[{"garbage": None, "empty_side": None}])
    with pytest.raises(ValidationError, match="name one rule or score per item"):
        SelectConfig(scores=[""])


def test_the_selected_folds_exist():
    assert SelectConfig(folds=5, select_folds=[5]).select_folds == [5]
    with pytest.raises(ValidationError, match=re.escape("select_folds [0, 11] outside 1..10")):
        SelectConfig(select_folds=[0, 1, 11])
    with pytest.raises(ValidationError, match="select_folds is empty"):
        SelectConfig(select_folds=[])


def test_a_blank_cache_dir_and_remote_model_files_are_refused():
    with pytest.raises(ValidationError, match="cache_dir is blank; use null for <output>/cache"):
        PipelineConfig(cache_dir="  ")
    assert PipelineConfig(cache_dir="gs://bucket/cache").cache_dir == "gs://bucket/cache"
    with pytest.raises(ValidationError, match="gs://b/model is a remote path"):
        TranslateConfig(model="gs://b/model")
    assert TranslateConfig(backend="mypackage.backends:MyBackend").backend == "mypackage.backends:MyBackend"


def test_stop_words_are_trimmed_words():
    assert LexiconConfig(stopwords=["the", "a"]).stopwords == ["the", "a"]
    for bad in ([""], [" the"], ["a", "the "]):
        with pytest.raises(ValidationError, match="stop words must be non-empty without surrounding spaces"):
            LexiconConfig(stopwords=bad)
