"""Text normalisation and tokenisation shared by the pipeline, the scorers and the trainer (no Beam, no torch).

* :class:`TextProcessor` -- sacremoses ``MosesPunctNormalizer(lang)`` then ``MosesTokenizer(lang)`` with
  ``escape=False``; the sacremoses objects are built lazily and never pickled (build once per worker).
* :class:`CachedTokenizer` -- raw sentences -> token lists with a model's saved tokeniser settings, with a bounded
  per-sentence cache (evaluation and training repeat sentences). The one tokeniser every encoder uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from sacremoses import MosesPunctNormalizer, MosesTokenizer

_DIGIT_START = re.compile(r"[0-9]")


def _fast_moses(lang: str) -> tuple[Any, Any]:
    r"""sacremoses' normaliser and tokeniser for ``lang``, with their per-call regex look-ups precompiled.

    ``MosesPunctNormalizer.normalize`` calls ``re.sub(pattern_string, ...)`` ~45 times per sentence (a cache
    look-up in ``re._compile`` each time) and ``MosesTokenizer.handles_nonbreaking_prefixes`` runs
    ``re.search(r"^(\S+)\.$", token)`` on every token. The subclasses below do the same substitutions with
    precompiled patterns and test ``token.endswith(".")`` directly (``\S`` and ``str.split`` agree on what
    whitespace is). The output is identical (``tests/core/test_text.py`` compares them on real text);
    they are about 1.5x faster.
    """
    class CompiledPunctNormalizer(MosesPunctNormalizer):
        def __init__(self, lang: str):
            super().__init__(lang=lang)
            self._compiled = [(re.compile(pattern), sub) for pattern, sub in self.substitutions]

        def normalize(self, text: str) -> str:
            if self.pre_replace_unicode_punct:
                text = self.replace_unicode_punct(text)
            for pattern, sub in self._compiled:
                text = pattern.sub(sub, text)
            if self.post_remove_control_chars:
                text = self.remove_control_chars(text)
            return text.strip()

    class FastPrefixTokenizer(MosesTokenizer):
        def __init__(self, lang: str):
            super().__init__(lang=lang)
            self._lower = frozenset(self.IsLower)
            self._alpha = frozenset(self.IsAlpha)

        def islower(self, text: str) -> bool:  # stock: builds set(IsLower) (~1,000 chars) on every call
            return self._lower.issuperset(text)

        def isanyalpha(self, text: str) -> bool:  # stock: builds set(IsAlpha) (~100k chars) on every call
            return not self._alpha.isdisjoint(text)

        def handles_nonbreaking_prefixes(self, text: str) -> str:
            tokens = text.split()
            num_tokens = len(tokens)
            for i, token in enumerate(tokens):
                if len(token) < 2 or token[-1] != ".":
                    continue
                prefix = token[:-1]
                keep = (
                    ("." in prefix and self.isanyalpha(prefix))
                    or (prefix in self.NONBREAKING_PREFIXES and prefix not in self.NUMERIC_ONLY_PREFIXES)
                    or (i != num_tokens - 1 and tokens[i + 1] and self.islower(tokens[i + 1][0]))
                    or (prefix in self.NUMERIC_ONLY_PREFIXES and (i + 1) < num_tokens
                        and _DIGIT_START.match(tokens[i + 1]))
                )
                if not keep:  # otherwise: a space before the full stop
                    tokens[i] = prefix + " ."
            return " ".join(tokens)

    return CompiledPunctNormalizer(lang), FastPrefixTokenizer(lang=lang)


class TextProcessor:
    """Moses punctuation normalisation + tokenisation per language; build once per worker (DoFn ``setup``).

    ``fast=True`` (default) uses :func:`_fast_moses` (same output as stock sacremoses, faster); ``fast=False``
    the stock sacremoses classes.
    """

    def __init__(self, languages: Iterable[str] = ("cs", "en"), fast: bool = True):
        self.languages = tuple(languages)
        self.fast = fast
        self._normalizers: dict[str, Any] = {}
        self._tokenizers: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"languages": self.languages, "fast": self.fast, "_normalizers": {}, "_tokenizers": {}}

    def _load(self, lang: str) -> None:
        if self.fast:
            self._normalizers[lang], self._tokenizers[lang] = _fast_moses(lang)
            return
        self._normalizers[lang] = MosesPunctNormalizer(lang=lang)
        self._tokenizers[lang] = MosesTokenizer(lang=lang)

    def normalize(self, text: str, lang: str) -> str:
        if lang not in self._normalizers:
            self._load(lang)
        return self._normalizers[lang].normalize(text)

    def tokenize(self, text: str, lang: str) -> list[str]:
        """Normalise then tokenise; ``[]`` for text with nothing left."""
        if lang not in self._tokenizers:
            self._load(lang)
        normalized = self._normalizers[lang].normalize(text)
        if not normalized.strip():
            return []
        return self._tokenizers[lang].tokenize(normalized, escape=False)


# The English tokeniser settings models save by default (``TrainConfig`` and the SIF/GloVe baselines).
MOSES_EN: dict[str, Any] = {"kind": "moses", "lang": "en", "normalize_punctuation": True, "escape": False,
                            "lowercase": True}


class CachedTokenizer:
    """Raw sentences -> token lists with a model's saved settings: ``{"kind": "moses", "lang": "en", ...}``
    (:class:`TextProcessor`: Moses punctuation normalisation and tokenisation, ``escape=False``) or
    ``{"kind": "whitespace"}``. Case is kept (encoders lower-case at lookup). Up to ``cache_size`` tokenised
    sentences are kept: evaluation re-encodes the same sentences across encoders, years and fits."""

    def __init__(self, settings: dict[str, Any] | None = None, cache_size: int = 200_000) -> None:
        self.settings = dict(settings if settings is not None else MOSES_EN)
        kind = self.settings.get("kind", "moses")
        if kind not in ("moses", "whitespace"):
            raise ValueError(f"unknown tokeniser kind {kind!r} (expected 'moses' or 'whitespace')")
        self.lang = self.settings.get("lang", "en")
        self._processor: TextProcessor | None = None
        self._cache: dict[str, list[str]] = {}
        self._cache_size = cache_size

    def __getstate__(self) -> dict[str, Any]:  # the cache and the sacremoses objects stay behind
        return {**self.__dict__, "_processor": None, "_cache": {}}

    def __call__(self, sentences: Sequence[str]) -> list[list[str]]:
        if isinstance(sentences, str):
            raise TypeError("expected a list of sentences, not one string")
        if self.settings.get("kind", "moses") == "whitespace":
            return [s.split() for s in sentences]
        if self._processor is None:
            self._processor = TextProcessor((self.lang,))
        out = []
        for sentence in sentences:
            tokens = self._cache.get(sentence)
            if tokens is None:
                tokens = self._processor.tokenize(sentence, self.lang)
                if len(self._cache) < self._cache_size:
                    self._cache[sentence] = tokens
            out.append(tokens)
        return out
