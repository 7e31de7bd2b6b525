"""The NMT back-translation worker: one :class:`Translator` over CTranslate2 or fairseq, with the model card's
text chain, token-bucketed batching and per-sentence failure isolation."""

from translate.cuda_libraries import process_route

process_route()  # first, before a module below imports ctranslate2: where CTranslate2 finds cuBLAS on a GPU

from translate.card import ModelCard, ModelDir, ModelDirError  # noqa: E402
from translate.loading import load_translator  # noqa: E402
from translate.translator import (  # noqa: E402
    BackendFailed,
    BackendUnavailable,
    Hypothesis,
    Status,
    Translation,
    TranslationStats,
    Translator,
)

__all__ = [
    "BackendFailed",
    "BackendUnavailable",
    "Hypothesis",
    "ModelCard",
    "ModelDir",
    "ModelDirError",
    "Status",
    "Translation",
    "TranslationStats",
    "Translator",
    "load_translator",
]
