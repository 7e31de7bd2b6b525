"""Do CTranslate2 and fairseq agree on a real model? Top-1 hypotheses and their scores, per decoding setting.

Decodes the first N sentences of ``../shared/data/bitext/multi30k-val.cs`` with both backends and prints, for each
way of running CTranslate2 (the model directory's own CT2 model as a new user runs it — compute type ``auto``, int8
on CPU —, the same model at float32, and a float32 CT2 conversion of the fairseq checkpoint made here), how many
best hypotheses are identical and how far their scores are apart. Sentences where either backend stopped at the
length cap are left out of the score comparison.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.paths import SHARED
from benchmarks.result import argument_parser
from configs.schema import TranslateConfig
from translate.card import ModelCard, ModelDir, write_card
from translate.convert import fairseq_to_ctranslate2
from translate.loading import load_translator
from translate.translator import Translation

DEFAULT_MODEL = SHARED / "models" / "small-cs-en"
DEFAULT_TEST = SHARED / "data" / "bitext" / "multi30k-val.cs"


def agreement(first: list[Translation], second: list[Translation]) -> dict[str, float]:
    """Identical best hypotheses, and score differences where identical (length-capped ones left out)."""
    same = [(a, b) for a, b in zip(first, second, strict=True) if a.tokens == b.tokens]
    diffs = sorted(abs(a.score - b.score) for a, b in same if not (a.hit_length_cap or b.hit_length_cap))
    return {"sentences": len(first), "top1_equal": len(same),
            "median_score_diff": statistics.median(diffs) if diffs else float("nan"),
            "max_score_diff": max(diffs) if diffs else float("nan")}


def float32_conversion(model: Path, out: Path) -> Path:
    """The model directory again, with a float32 CTranslate2 conversion of its fairseq checkpoint."""
    model_dir = ModelDir(model)
    card = model_dir.card
    assert card.fairseq is not None, "the model needs a fairseq checkpoint"
    fairseq_to_ctranslate2(model_dir.path(card.fairseq.checkpoint), model_dir.path(card.fairseq.data), out / "ct2",
                           card.source_lang, card.target_lang)
    copy = ModelCard.model_validate({**card.model_dump(), "ctranslate2": "ct2"})
    for relative in filter(None, (card.preprocess.bpe_codes, card.preprocess.sentencepiece_model,
                                  card.postprocess.sentencepiece_model)):
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_bytes(model_dir.path(relative).read_bytes())
    copy.fairseq = card.fairseq.model_copy(update={
        "checkpoint": str(model_dir.path(card.fairseq.checkpoint)), "data": str(model_dir.path(card.fairseq.data))})
    write_card(out, copy)
    return out


class _MinLength:
    """A ctranslate2.Translator whose translate_batch uses another min_decoding_length (to show its effect)."""

    def __init__(self, inner: Any, min_length: int):
        self.inner, self.min_length = inner, min_length

    def translate_batch(self, *args: Any, **kwargs: Any) -> Any:
        return self.inner.translate_batch(*args, **{**kwargs, "min_decoding_length": self.min_length})


def main(argv: list[str] | None = None) -> int:
    p = argument_parser(__file__, __doc__)
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    p.add_argument("--test", type=Path, default=DEFAULT_TEST)
    p.add_argument("--sentences", type=int, default=150)
    p.add_argument("--beam", type=int, default=12)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    sentences = args.test.read_text(encoding="utf-8").splitlines()[: args.sentences]
    base = {"beam_size": args.beam, "device": "cpu", "threads": args.threads}
    fairseq = load_translator(TranslateConfig(model=args.model, backend="fairseq", **base)).translate(sentences)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        converted = float32_conversion(args.model, Path(tmp) / "f32")
        for label, model, compute_type, min_length in [
            ("model's CT2, compute_type auto (as a new user runs it)", args.model, "auto", 0),
            ("model's CT2, compute_type float32", args.model, "float32", 0),
            ("float32 CT2 conversion, compute_type auto", converted, "auto", 0),
            ("float32 CT2 conversion, compute_type float32", converted, "float32", 0),
            ("float32 CT2 conversion, float32, CT2's default min_decoding_length=1", converted, "float32", 1),
        ]:
            translator = load_translator(TranslateConfig(model=model, backend="ctranslate2",
                                                         compute_type=compute_type, **base))
            if min_length:
                translator.backend.translator = _MinLength(translator.backend.translator, min_length)
            ct2 = translator.translate(sentences)
            rows[label] = {**agreement(ct2, fairseq), "ct2_compute_type": translator.backend.compute_type}
    for label, row in rows.items():
        print(f"{label}: top-1 equal {row['top1_equal']}/{row['sentences']}, score diff median "
              f"{row['median_score_diff']:.2e} max {row['max_score_diff']:.2e} ({row['ct2_compute_type']})")
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
