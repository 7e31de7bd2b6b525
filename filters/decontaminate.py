"""Evaluation decontamination: keep the sentences of evaluation sets out of ``train/`` (``select.exclude_sentences``).

A user who trains embeddings on the corpus and reports STS or SICK numbers must be able to say that no training
sentence is an evaluation sentence. :class:`ExcludedSentences` reads evaluation files (paths or globs):

* one sentence per line, or
* tab-separated lines (STS ``STS.input.*``, STS-B ``sts-*.csv``, SICK ``*.tsv``, released ParaNMT TSV): every
  field that contains a letter is taken as a sentence, so numbers, ids and scores are skipped and no column
  layout needs declaring. Labels and genre names (``ENTAILMENT``, ``main-captions``) are taken too: they exclude
  only a training sentence that is exactly that word, which errs on the safe side.

Each sentence is compared after the pipeline's dedup normalisation (Moses punctuation normalisation and
tokenisation, the tokens joined by spaces) and **lower-cased** — the trainer lower-cases, so a pair that differs
from an evaluation sentence only in case would still put it into training. :class:`ExcludeSentences` is the
vectorised filter rule (reason ``eval_overlap``): a pair fails when its English side *or* its machine translation
equals an evaluation sentence. Keys are computed with Arrow (``binary_join`` + ``utf8_lower``) on both sides, so
the comparison is the same function for the evaluation files and the corpus, and no Python loop runs over pairs.
"""

from __future__ import annotations

import functools
import glob
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from filters.plugins import Rule
from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import EN_TOKENS, MT_TOKENS, Reason
from paranmt.core.text import TextProcessor

__all__ = ["ExcludeSentences", "ExcludedSentences", "ExclusionError", "expand_patterns", "read_sentences",
           "sentence_keys"]

Tokenize = Callable[[str], list[str]]


class ExclusionError(ParanmtError, ValueError):
    """An evaluation file cannot be used; the message names the file or pattern and the fix."""


def expand_patterns(patterns: Iterable[str | Path]) -> list[Path]:
    """Files named by paths or globs (sorted per pattern, duplicates dropped); a pattern that matches no file is
    an error — a typo must not silently turn decontamination off."""
    files: dict[Path, None] = {}
    for pattern in patterns:
        text = str(pattern)
        matched = sorted(glob.glob(text, recursive=True)) if glob.has_magic(text) else [text]
        found = [Path(p) for p in matched if Path(p).is_file()]
        if not found:
            raise ExclusionError(f"select.exclude_sentences: {text} matches no file (give evaluation files or "
                                 "globs, e.g. ../shared/data/sts/*/*.txt)")
        files.update(dict.fromkeys(found))
    return list(files)


def read_sentences(path: Path) -> list[str]:
    """The sentences of one evaluation file: each line, or each tab-separated field with a letter in it."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ExclusionError(f"select.exclude_sentences: {path} is not UTF-8 text ({error.reason} at byte "
                             f"{error.start}); give evaluation files as UTF-8 text") from None
    except OSError as error:
        raise ExclusionError(f"select.exclude_sentences: cannot read {path}: {error.strerror}") from None
    sentences = []
    for line in text.splitlines():
        for value in line.split("\t"):
            value = value.strip()
            if value and any(ch.isalpha() for ch in value):
                sentences.append(value)
    return sentences


def sentence_keys(tokens: pa.Array | pa.ChunkedArray) -> pa.Array:
    """Comparison keys of tokenised sentences (a ``list<string>`` column): tokens joined by spaces, lower-cased.
    A null or empty token list gives null, which matches nothing."""
    joined = pc.binary_join(tokens, " ")
    keys = pc.utf8_lower(joined)
    keys = pc.if_else(pc.equal(pc.utf8_length(keys), 0), pa.scalar(None, pa.string()), keys)
    return keys.combine_chunks() if isinstance(keys, pa.ChunkedArray) else keys


@dataclass(frozen=True)
class ExcludedSentences:
    """The normalised evaluation sentences to keep out of training (``keys``: distinct, sorted), where they came
    from (``files``: sentences read per file) and an ``id`` over the keys, for output metadata."""

    keys: pa.Array = field(repr=False)
    files: dict[str, int]
    id: str

    @classmethod
    def from_sentences(cls, sentences_per_file: dict[str, Sequence[str]], tokenize: Tokenize) -> ExcludedSentences:
        tokens = [tokenize(s) for sentences in sentences_per_file.values() for s in sentences]
        keys = pc.unique(sentence_keys(pa.array(tokens, pa.list_(pa.string())))).drop_null()
        keys = keys.take(pc.sort_indices(keys))
        digest = hashlib.sha256("\n".join(keys.to_pylist()).encode("utf-8")).hexdigest()[:16]
        return cls(keys=keys, files={name: len(s) for name, s in sentences_per_file.items()},
                   id=f"eval-sentences-{digest}")

    @classmethod
    def load(cls, patterns: Sequence[str | Path]) -> ExcludedSentences:
        """Read every file the patterns name and normalise it with the project's English Moses tokeniser (another
        tokeniser: :meth:`from_sentences`). Cached per process by the files' paths, sizes and modification times."""
        files = expand_patterns(patterns)
        stamps = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
        return _load_cached(stamps)

    def __len__(self) -> int:
        return len(self.keys)

    def matches(self, tokens: pa.Array | pa.ChunkedArray) -> np.ndarray:
        """Which tokenised sentences equal an evaluation sentence (bool per row)."""
        hit = pc.is_in(sentence_keys(tokens), value_set=self.keys)
        return np.asarray(pc.fill_null(hit, False).to_numpy(zero_copy_only=False), dtype=bool)

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "sentences": len(self), "files": dict(self.files)}


@functools.lru_cache(maxsize=4)
def _load_cached(stamps: tuple[tuple[str, int, int], ...]) -> ExcludedSentences:
    text = TextProcessor(("en",))
    return ExcludedSentences.from_sentences({name: read_sentences(Path(name)) for name, _, _ in stamps},
                                            lambda s: text.tokenize(s, "en"))


class ExcludeSentences(Rule):
    """Filter rule: neither side of a pair may equal an evaluation sentence (reason ``eval_overlap``). Built from
    ``select.exclude_sentences`` (the sentences are read once, on the launcher), not named in ``select.rules``."""

    key: ClassVar[str] = "exclude_sentences"
    reason: ClassVar[str] = Reason.EVAL_OVERLAP
    columns: ClassVar[tuple[str, ...]] = (EN_TOKENS, MT_TOKENS)
    excluded: ExcludedSentences

    def check(self, table: pa.Table) -> np.ndarray:
        return ~(self.excluded.matches(table.column(EN_TOKENS)) | self.excluded.matches(table.column(MT_TOKENS)))

    def params(self) -> dict[str, Any]:
        """Where the sentences came from, not the sentences."""
        return self.excluded.describe()
