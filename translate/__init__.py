"""The NMT back-translation worker: one :class:`Translator` over CTranslate2 or fairseq, with the model card's
text chain, token-bucketed batching and per-sentence failure isolation."""

from translate.card import ModelCard, ModelDir, ModelDirError
from translate.ct2_backend import BackendUnavailable
from translate.loading import load_translator
from translate.translator import Hypothesis, Status, Translation, TranslationStats, Translator

__all__ = [
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
