"""CTranslate2 and fairseq agree on a real model (../shared/models/small-cs-en), and where they do not, why.

Measured on the first 150 Multi30k validation sentences at beam 12 (benchmarks/translate/backend_agreement.py prints the
whole table): with float32 weights on both sides, 150/150 best hypotheses are identical and their scores differ by
at most ~1e-6. The shared model's own CTranslate2 copy has int8 weights (converted with ``--quantization int8``),
and CTranslate2's ``compute_type: auto`` is int8 on CPU: both compute a quantised function, which changes scores by
~2e-3 (median) and ~1 best hypothesis in 9 against fairseq's float32 checkpoint. That is inherent to quantisation,
not a decoding difference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from configs.schema import TranslateConfig
from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data, shared_path
from tests.support.text_files import read_lines
from translate.loading import load_translator

SENTENCES, BEAM = 150, 12


def shared_model() -> Path:
    return shared_path("models/small-cs-en")


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    return read_lines(shared_data("bitext/multi30k-val.cs"))[:SENTENCES]


@pytest.fixture(scope="module")
def fairseq_output(sentences):
    config = TranslateConfig(model=shared_model(), backend="fairseq", device="cpu", beam_size=BEAM, threads=1)
    return load_translator(config).translate(sentences)


def ct2_output(model: Path, compute_type: str, sentences: list[str]):
    config = TranslateConfig(model=model, backend="ctranslate2", device="cpu", beam_size=BEAM, threads=1,
                             compute_type=compute_type)
    return load_translator(config).translate(sentences)


def test_backends_agree_on_the_real_model_with_float32_weights(tmp_path, sentences, fairseq_output):
    bench = load_benchmark("translate/backend_agreement")
    converted = bench.float32_conversion(shared_model(), tmp_path / "f32")
    figures = bench.agreement(ct2_output(converted, "float32", sentences), fairseq_output)
    assert figures["top1_equal"] >= SENTENCES - 1, figures
    assert figures["median_score_diff"] < 1e-5 and figures["max_score_diff"] < 1e-4, figures
    assert not any(t.hit_length_cap for t in fairseq_output)


def test_the_shipped_int8_weights_are_what_moves_the_scores(sentences, fairseq_output):
    bench = load_benchmark("translate/backend_agreement")
    figures = bench.agreement(ct2_output(shared_model(), "auto", sentences), fairseq_output)
    # quantised weights: the same search over a slightly different function
    assert figures["top1_equal"] >= 0.8 * SENTENCES, figures
    assert 1e-4 < figures["median_score_diff"] < 1e-2, figures
