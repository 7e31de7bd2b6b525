"""Evaluation decontamination (``select.exclude_sentences``): file reading, the vectorised rule against a plain
Python reference on real STS sentences, the selection counts, and the pipeline's summary proof."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs import load_config
from configs.schema import SelectConfig
from filters.decontaminate import ExcludedSentences, ExcludeSentences, ExclusionError, expand_patterns, read_sentences
from filters.folds import select_training_pairs
from filters.plugins import step_of
from filters.rules import rules_from_config
from paranmt.core.pair_schema import EN_TOKENS, MT_TOKENS, PAIRS_SCHEMA, Reason
from paranmt.core.text import TextProcessor
from pipeline.run import main
from tests.support.pair_tables import table_from_columns
from tests.support.repo import REPO_ROOT
from tests.support.sample_run import SUITE_KERNEL
from tests.support.taste_data import taste_pairs
from tests.support.text_files import read_lines

TEXT = TextProcessor(("en",))


def tokenize(sentence: str) -> list[str]:
    return TEXT.tokenize(sentence, "en")


def reference_key(sentence: str) -> str:
    """The slow obvious definition: Moses tokens joined by spaces, lower-cased."""
    return " ".join(tokenize(sentence)).lower()


def test_read_sentences_lines_and_tab_separated_fields(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("\ufeffA man plays a guitar.\n\n  Two dogs run.  \n", encoding="utf-8")
    assert read_sentences(plain) == ["A man plays a guitar.", "Two dogs run."]
    stsb = tmp_path / "sts.csv"  # genre, file, year, id, score, sentence1, sentence2
    stsb.write_text("main-captions\tMSRvid\t2012test\t0001\t5.000\tA plane is taking off.\tAn air plane is "
                    "taking off.\n", encoding="utf-8")
    assert read_sentences(stsb) == ["main-captions", "MSRvid", "2012test", "A plane is taking off.",
                                    "An air plane is taking off."]
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"caf\xe9\n")
    with pytest.raises(ExclusionError, match=r"latin1\.txt is not UTF-8"):
        read_sentences(bad)


def test_a_pattern_that_matches_nothing_is_an_error_naming_it(tmp_path):
    (tmp_path / "a.txt").write_text("x\n")
    assert expand_patterns([str(tmp_path / "*.txt"), tmp_path / "a.txt"]) == [tmp_path / "a.txt"]
    with pytest.raises(ExclusionError, match=r"nope/\*\.tsv matches no file"):
        expand_patterns([str(tmp_path / "nope" / "*.tsv")])


def test_rule_matches_the_python_reference_on_real_sentences_in_an_sts_file(tmp_path):
    """An evaluation file in the STS input layout (``sentence1<TAB>sentence2``) of real sentences: the bundled
    pairs (support/taste_data.py:taste_pairs), Tatoeba English and the translations of its Czech."""
    _, en_lines, mt_lines = taste_pairs(400)
    path = tmp_path / "STS.input.tatoeba.txt"
    path.write_text("".join(f"{a}\t{b}\n" for a, b in zip(en_lines, mt_lines, strict=True)), encoding="utf-8")
    sentences = read_sentences(path)
    assert len(sentences) == 800
    excluded = ExcludedSentences.from_sentences({str(path): sentences[:400]}, tokenize)
    assert len(excluded) == len({reference_key(s) for s in sentences[:400]})
    # Pairs: evaluation sentences re-cased and re-spaced on either side, and other sentences of the same file.
    en = [s.upper() if i % 3 == 0 else s for i, s in enumerate(sentences[300:700])]
    mt = list(reversed(sentences[300:700]))
    table = table_from_columns({EN_TOKENS: [tokenize(s) for s in en], MT_TOKENS: [tokenize(s) for s in mt]},
                               pa.schema([PAIRS_SCHEMA.field(EN_TOKENS), PAIRS_SCHEMA.field(MT_TOKENS)]))
    keys = {reference_key(s) for s in sentences[:400]}
    expected = np.array([reference_key(a) not in keys and reference_key(b) not in keys
                         for a, b in zip(en, mt, strict=True)])
    passes = ExcludeSentences(excluded).check(table)
    np.testing.assert_array_equal(passes, expected)
    assert 0 < (~expected).sum() < len(expected)  # the check sees both outcomes


def test_selection_counts_eval_overlap_first_and_echoes_the_files(tmp_path):
    evaluation = tmp_path / "eval.txt"
    evaluation.write_text("A dog runs.\nThe cat sleeps.\n", encoding="utf-8")
    en = ["a dog runs .", "A bird sings .", "Cows moo .", "the cat sleeps .", "Birds fly ."]
    mt = ["A dog is running .", "A bird is singing .", "The cat sleeps.", "A cat is asleep .", "Birds are flying ."]
    table = table_from_columns({
        "id": [f"x:L{i}" for i in range(5)], "en_tokens": [s.split() for s in en],
        "mt_tokens": [tokenize(s) for s in mt], "paraphrase_score": [0.9, 0.8, 0.7, 0.6, 0.5]})
    config = SelectConfig(exclude_sentences=[str(evaluation)], select_folds=[1, 2], folds=2)
    result = select_training_pairs(table, config, seed=1)
    assert result.reason.tolist()[:4] == [Reason.EVAL_OVERLAP, Reason.KEPT, Reason.EVAL_OVERLAP, Reason.EVAL_OVERLAP]
    assert result.counts[Reason.EVAL_OVERLAP] == 3
    assert not result.keep[[0, 2, 3]].any() and result.keep[[1, 4]].all()
    (step,) = [s for s in map(step_of, rules_from_config(config)) if "exclude_sentences" in s]
    assert step["exclude_sentences"]["files"] == {str(evaluation): 2}
    assert step["exclude_sentences"]["sentences"] == 2


def test_config_resolves_exclusions_relative_to_the_yaml_file(tmp_path):
    (tmp_path / "sets").mkdir()
    (tmp_path / "run.yaml").write_text("select:\n  exclude_sentences: sets/*.txt\n", encoding="utf-8")
    config = load_config(tmp_path / "run.yaml")
    assert config.select.exclude_sentences == [str(tmp_path / "sets" / "*.txt")]
def test_pipeline_excludes_evaluation_sentences_and_proves_it_in_the_summary(tmp_path, capsys, sample_run):
    """The bundled sample with half of its English sentences as an "evaluation set": the summary's count equals
    an independent count over pairs/, and train/ holds none of them. The translations come from a copy of the
    sample run's cache (the same chunks: the exclusion does not change what is translated)."""
    sample = REPO_ROOT / "configs" / "sample"
    english = read_lines(sample / "sample.en")
    evaluation = tmp_path / "eval" / "held-out.txt"
    evaluation.parent.mkdir()
    evaluation.write_text("\n".join(s.lower() for s in english[::2]) + "\n", encoding="utf-8")
    out, cache = tmp_path / "run", tmp_path / "cache"
    shutil.copytree(sample_run / "cache", cache)
    code = main(["--config", "sample", "--cs", str(sample / "sample.cs"), "--en", str(sample / "sample.en"),
                 "--out", str(out), "--set", f"select.exclude_sentences=['{tmp_path}/eval/*.txt']",
                 "--set", SUITE_KERNEL,
                 "--set", f"pipeline.cache_dir={cache}", "--runner", "FnApiRunner"])
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["metrics"]["translation_cache_hit_rows"] == 400
    keys = {reference_key(s) for s in english[::2]}
    pairs = pq.read_table(out / "pairs").to_pylist()
    overlapping = [p for p in pairs if " ".join(p["en_tokens"]).lower() in keys
                   or " ".join(p["mt_tokens"]).lower() in keys]
    assert len(overlapping) > 50
    assert all(p["reason"] == "eval_overlap" and not p["keep"] for p in overlapping)
    clean = summary["decontamination"]
    assert clean["pairs_excluded"] == summary["pairs_by_decision"]["eval_overlap"] == len(overlapping)
    assert clean["train_overlap"] == 0 and clean["train_pairs_checked"] == summary["train"] > 0
    assert clean["files"] == {str(evaluation): len(english[::2])}
    metadata = pq.read_schema(next((out / "train").glob("*.parquet"))).metadata
    assert json.loads(metadata[b"paranmt.excluded_sentences"])["id"] == clean["id"]
    assert "pairs excluded (eval_overlap)" in capsys.readouterr().out


def test_pipeline_names_a_missing_evaluation_file_before_any_work(tmp_path, capsys):
    sample = REPO_ROOT / "configs" / "sample"
    out = tmp_path / "run"
    code = main(["--config", "sample", "--cs", str(sample / "sample.cs"), "--en", str(sample / "sample.en"),
                 "--out", str(out), "--set", f"select.exclude_sentences={tmp_path}/missing.txt",
                 "--set", SUITE_KERNEL])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: select.exclude_sentences: {tmp_path}/missing.txt matches no file (give evaluation "
                   "files or globs, e.g. ../shared/data/sts/*/*.txt)"]
    assert not (out / "scorer").exists()


def test_copies_are_rejected_before_ranking_and_take_no_fold_slot():
    """A back-translation equal to its reference (after normalisation, any case) is a copy: reason ``copy``, not
    ranked, so the top deciles are deciles of real paraphrases; ``drop_copies: false`` keeps the paper's rule."""
    en = ["A dog runs .", "The cat sleeps .", "Birds fly south .", "Cows moo .", "It rains ."]
    mt = ["a dog runs .", "A cat is asleep .", "Birds fly south.", "The cows are mooing .", "It is raining ."]
    table = table_from_columns({
        "id": [f"x:L{i}" for i in range(5)], "en_tokens": [s.split() for s in en],
        "mt_tokens": [tokenize(s) for s in mt], "paraphrase_score": [1.0, 0.7, 1.0, 0.6, 0.8]})
    result = select_training_pairs(table, SelectConfig(folds=3, select_folds=[3]), seed=1)
    assert result.reason.tolist()[0] == result.reason.tolist()[2] == Reason.COPY
    assert result.counts[Reason.COPY] == 2 and result.fold.tolist()[0] == result.fold.tolist()[2] == 0
    assert result.keep.tolist() == [False, False, False, False, True]  # the best non-copy, not a copy
    kept_copies = select_training_pairs(table, SelectConfig(folds=3, select_folds=[2, 3], drop_copies=False), seed=1)
    assert Reason.COPY not in kept_copies.counts and kept_copies.keep[[0, 2]].all()  # the copies rank on top
