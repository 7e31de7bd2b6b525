"""Text normalisation and tokenisation shared by the pipeline, the scorers and the trainer (no Beam, no torch).

* :func:`sentence_text` -- a sentence as read from an input: a tab inside it is whitespace, one space.
* :class:`TextProcessor` -- sacremoses ``MosesPunctNormalizer(lang)`` then ``MosesTokenizer(lang)`` with
  ``escape=False``; the sacremoses objects are built lazily and never pickled (build once per worker).
* :class:`CachedTokenizer` -- raw sentences -> token lists with a model's saved tokeniser settings, with a bounded
  per-sentence cache (evaluation and training repeat sentences). The one tokeniser every encoder uses.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from re import _constants as _regex_constants
from re import _parser as _regex_parser  # the parser behind re.compile (Python >= 3.11)
from typing import Any

from sacremoses import MosesPunctNormalizer, MosesTokenizer

# re._parser and re._constants are private: the one way to read a pattern's structure. They are used read-only, to
# find the literal text every match needs (a guard); tests/paranmt/core/test_text.py pins the output to stock
# sacremoses.

_DIGIT_START = re.compile(r"[0-9]")


def sentence_text(text: str) -> str:
    """A sentence as the pipeline keeps it: a tab inside it (a pair file's line, a JSONL or Parquet value; in TSV
    it separates the columns) is whitespace, made one space as Moses' normaliser makes runs of spaces one, so it
    is text to the rules and not a control character; real control characters stay for the rules to see."""
    return text.replace("\t", " ")


_BACKREF = re.compile(r"\\(?:([1-9])|g<([0-9]+)>)")


def _replacement(template: str) -> str | Callable[[re.Match[str]], str]:
    r"""``template`` as ``Pattern.sub`` uses it, parsed once: CPython re-parses a template that holds a backslash
    (``r" \1 "``) on every ``sub`` call, match or not. A template of literal text and group references (``\1``,
    ``\g<1>``) becomes a function that joins the pieces (an unmatched group is empty, as in ``re``); any other
    stays as it is."""
    if "\\" not in template:
        return template
    pieces = _BACKREF.split(template)  # literal, (digit, g<n>), literal, ...
    literals = pieces[::3]
    if any("\\" in literal for literal in literals):
        return template
    groups = [int(digit or named) for digit, named in zip(pieces[1::3], pieces[2::3], strict=True)]

    def expand(match: re.Match[str]) -> str:
        out = [literals[0]]
        for group, literal in zip(groups, literals[1:], strict=True):
            out.append(match.group(group) or "")
            out.append(literal)
        return "".join(out)

    return expand


def _literal(pattern: str) -> str | None:
    """The text a regular expression matches when it is plain literal text (no classes, repeats, anchors)."""
    try:
        parsed = _regex_parser.parse(pattern)
    except re.error:
        return None
    if all(op == _regex_parser.LITERAL for op, _ in parsed):
        return "".join(chr(code) for _, code in parsed)
    return None


def _needle(pattern: re.Pattern[str]) -> str | None:
    """Text every match of ``pattern`` contains -- the longest run of literal characters on its mandatory path
    (punctuation preferred to letters at equal length: it is rarer) -- or None. Where ``text`` lacks it,
    ``pattern.sub(..., text)`` is ``text``."""
    return _pattern_needle(pattern.pattern, pattern.flags)


@functools.cache  # every language's tokeniser has the same class-level patterns, some with ~100k-character classes
def _pattern_needle(source: str, flags: int) -> str | None:
    if flags & re.IGNORECASE:
        return None
    runs: list[str] = []

    def walk(items: Iterable[tuple[int, Any]]) -> None:  # Any: sre's argument, its shape set by the opcode
        run = ""
        for op, value in items:
            if op is _regex_constants.IN and len(value) == 1 and value[0][0] is _regex_constants.LITERAL:
                op, value = value[0]
            if op is _regex_constants.LITERAL:
                run += chr(value)
                continue
            repeat = op in (_regex_constants.MAX_REPEAT, _regex_constants.MIN_REPEAT)
            if repeat and len(value[2]) == 1 and value[2][0][0] is _regex_constants.LITERAL:  # x{m,n}: m x's
                run += chr(value[2][0][1]) * value[0]
                if value[0] == value[1]:
                    continue
            runs.append(run)
            run = ""
            if op is _regex_constants.SUBPATTERN and not value[1] & re.IGNORECASE:
                walk(value[3])
            elif repeat and value[0] >= 1:
                walk(value[2])
        runs.append(run)

    walk(_regex_parser.parse(source, flags))
    return max(runs, key=lambda run: (len(run), not run.isalnum()), default="") or None


Replacement = str | Callable[[re.Match[str]], str]  # what Pattern.sub takes: a template or a function


class _GuardedPattern:
    """A compiled pattern whose ``sub`` first checks, with ``str.__contains__``, that the text holds the text every
    match needs (:func:`_needle`): most of Moses' ~25 substitutions per sentence cannot match most sentences, and a
    ``sub`` that finds nothing still costs a regex scan. Anything else is the pattern's own."""

    __slots__ = ("_needle", "_pattern")

    def __init__(self, pattern: re.Pattern[str], needle: str):
        self._pattern, self._needle = pattern, needle

    def sub(self, replacement: Replacement, text: str, count: int = 0) -> str:
        return self._pattern.sub(replacement, text, count) if self._needle in text else text

    def __getattr__(self, name: str) -> Any:  # Any: whatever re.Pattern's attribute is
        return getattr(self._pattern, name)


def _guarded(pattern: re.Pattern[str]) -> re.Pattern[str] | _GuardedPattern:
    needle = _needle(pattern)
    return pattern if needle is None else _GuardedPattern(pattern, needle)


def _is_rule(value: object) -> bool:
    """A sacremoses ``(compiled pattern, template)`` substitution."""
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], re.Pattern) \
        and isinstance(value[1], str)


def _resolved(value: object) -> object:
    """A sacremoses rule, or a list of them, with the templates resolved and the patterns guarded
    (:class:`_GuardedPattern`), a bare pattern guarded; anything else (any class attribute) as it is."""
    if isinstance(value, re.Pattern):
        return _guarded(value)
    if _is_rule(value):
        return _guarded(value[0]), _replacement(value[1])
    if isinstance(value, list) and value and all(_is_rule(item) for item in value):
        return [_resolved(item) for item in value]
    return value


# The speed layer: sacremoses' own classes with their per-call regex work done once per instance. Output is
# identical to stock sacremoses (tests/paranmt/core/test_text.py compares them on real text); docs/scaling.md ("CPU
# throughput without the NMT") measured the gain. Build them through fast_moses, once per process and language.


class _CompiledPunctNormalizer(MosesPunctNormalizer):
    """``MosesPunctNormalizer`` whose ~45 substitutions are resolved once: stock ``normalize`` calls
    ``re.sub(pattern_string, ...)`` for each, a look-up in ``re``'s compile cache every time."""

    def __init__(self, lang: str):
        super().__init__(lang=lang)
        # A literal pattern with a plain replacement is str.replace (same leftmost non-overlapping matches,
        # much cheaper when absent, which most of the 45 are in most sentences).
        # The others are guarded by the text every match needs (:func:`_needle`; "" where there is none).
        self._steps = [("", literal, sub) if (literal := _literal(pattern)) is not None and "\\" not in sub
                       else (_needle(compiled := re.compile(pattern)) or "", compiled, _replacement(sub))
                       for pattern, sub in self.substitutions]

    def normalize(self, text: str) -> str:
        if self.pre_replace_unicode_punct:
            text = self.replace_unicode_punct(text)
        for needle, pattern, sub in self._steps:
            if needle in text:
                text = text.replace(pattern, sub) if isinstance(pattern, str) else pattern.sub(sub, text)
        if self.post_remove_control_chars:
            text = self.remove_control_chars(text)
        return text.strip()


class _FastPrefixTokenizer(MosesTokenizer):
    r"""``MosesTokenizer`` with its class-level rules resolved and guarded per instance, its character-class tests
    on prebuilt sets, and ``handles_nonbreaking_prefixes`` testing ``token[-1] == "."`` where stock runs
    ``re.search(r"^(\S+)\.$", token)`` on every token (``\S`` and ``str.split`` agree on what whitespace is)."""

    def __init__(self, lang: str):
        super().__init__(lang=lang)
        for name in dir(MosesTokenizer):  # its rules and patterns, resolved and guarded, shadowed per instance
            rule = getattr(MosesTokenizer, name)
            resolved = _resolved(rule)
            if resolved is not rule:
                setattr(self, name, resolved)
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


@functools.cache  # stateless and slow to build: every TextProcessor of a process shares them
def fast_moses(lang: str) -> tuple[_CompiledPunctNormalizer, _FastPrefixTokenizer]:
    """sacremoses' normaliser and tokeniser for ``lang`` with their per-call regex work precompiled: templates
    resolved once (:func:`_replacement`), literal patterns done as ``str.replace``, other patterns skipped where
    the text every match needs is absent (:func:`_needle`). Same output as stock sacremoses."""
    return _CompiledPunctNormalizer(lang), _FastPrefixTokenizer(lang=lang)


class TextProcessor:
    """Moses punctuation normalisation + tokenisation per language; build once per worker (DoFn ``setup``).

    ``fast=True`` (default) uses :func:`fast_moses` (same output as stock sacremoses, faster); ``fast=False``
    the stock sacremoses classes.
    """

    def __init__(self, languages: Iterable[str] = ("cs", "en"), fast: bool = True):
        self.languages = tuple(languages)
        self.fast = fast
        self._normalizers: dict[str, MosesPunctNormalizer] = {}
        self._tokenizers: dict[str, MosesTokenizer] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"languages": self.languages, "fast": self.fast, "_normalizers": {}, "_tokenizers": {}}

    def _load(self, lang: str) -> None:
        if self.fast:
            self._normalizers[lang], self._tokenizers[lang] = fast_moses(lang)
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


# The English tokeniser settings models save by default (``TrainConfig`` and the SIF/GloVe baselines). Moses
# always normalises punctuation and never escapes here (:class:`TextProcessor`); ``lowercase`` is read at lookup
# (the encoders' vocabularies and the sentence-transformers export). Settings saved by older models with more keys
# (``normalize_punctuation``, ``escape``) load the same: nothing reads those.
MOSES_EN: dict[str, str | bool] = {"kind": "moses", "lang": "en", "lowercase": True}


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
