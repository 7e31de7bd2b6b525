"""The model card's text chain: raw source text -> model tokens, and model tokens -> detokenised target text.

Source: Moses punctuation normalisation -> Moses tokenisation -> subword (BPE codes via subword-nmt or a
SentencePiece model). Target: undo subwords -> Moses detokenisation. Only real libraries do the work here; the
source's Moses steps are sacremoses' classes with their per-call regex work precompiled
(:func:`paranmt.core.text.fast_moses`, same output): on a GPU the text chain, not the decoder, sets a single process's
pace.
"""

from __future__ import annotations

import functools
import multiprocessing
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import sentencepiece as spm
from sacremoses import MosesDetokenizer, MosesPunctNormalizer, MosesTokenizer
from subword_nmt.apply_bpe import BPE

from paranmt.core.text import fast_moses
from translate.card import ModelDir

BPE_SEPARATOR = "@@"

#: Words whose BPE pieces a source encoder remembers, the least recently used leaving first: a corpus's frequent
#: words stay, and the long tail of a CzEng-sized vocabulary cannot grow a worker's memory without bound.
WORD_MEMO_SIZE = 1 << 20


class _NoCache(dict):
    """A cache that keeps nothing: subword-nmt's own per-word cache, unbounded and a copy of the encoder's memo."""

    def __setitem__(self, key: object, value: object) -> None:
        pass


def load_bpe(codes: str | Path) -> BPE:
    """subword-nmt's BPE over a codes file, with the ``@@`` separator the models are trained and decoded with."""
    with open(codes, encoding="utf-8") as handle:
        return BPE(handle, separator=BPE_SEPARATOR)


def moses_words(text: str, normalizer: MosesPunctNormalizer | None, tokenizer: MosesTokenizer | None,
                aggressive_dash_splits: bool = False) -> str:
    """Whitespace collapsed, then Moses punctuation normalisation and tokenisation (``escape=False``) where given:
    the words a model sees before subwords, at training time (:func:`translate.train.moses_lines`) and after."""
    text = " ".join(text.split())  # collapse whitespace, drop tabs and newlines
    if normalizer is not None:
        text = normalizer.normalize(text)
    if tokenizer is not None:
        text = tokenizer.tokenize(text, escape=False, return_str=True, aggressive_dash_splits=aggressive_dash_splits)
    return text.strip()


class SourceEncoder:
    """Raw source sentences -> the token strings the model was trained on."""

    def __init__(self, model_dir: ModelDir, lang: str | None = None):
        """``lang``: the Moses steps' language (default the card's source language; the target language
        tokenises a training target side the way training did, e.g. for :mod:`translate.vmap`)."""
        card = model_dir.card
        spec = card.preprocess
        lang = lang or card.source_lang
        normalizer, tokenizer = fast_moses(lang)
        self._normalizer = normalizer if spec.normalize_punctuation else None
        self._tokenizer = tokenizer if spec.tokenize == "moses" else None
        self._aggressive = spec.aggressive_dash_splits
        self._bpe: BPE | None = None
        self._spm: spm.SentencePieceProcessor | None = None
        if spec.subword == "bpe":
            self._bpe = load_bpe(model_dir.path(spec.bpe_codes or ""))
            self._bpe.cache = _NoCache()
        elif spec.subword == "sentencepiece":
            self._spm = spm.SentencePieceProcessor(model_file=str(model_dir.path(spec.sentencepiece_model or "")))
        self._prefix = list(spec.prefix_tokens)
        self._pieces_of = functools.lru_cache(maxsize=WORD_MEMO_SIZE)(self._segment)

    def _segment(self, word: str) -> tuple[str, ...]:
        assert self._bpe is not None
        return tuple(" ".join(self._bpe.segment_tokens([word])).split())

    def _subwords(self, line: str) -> list[str]:
        """``BPE.process_line(line).split()``, word by word from a memo (:data:`WORD_MEMO_SIZE` words): subword-nmt
        segments each word of a line alone (no dropout), so a word's pieces are the same in every line; its
        per-word calls cost more than the segmentation they look up (docs/scaling.md)."""
        pieces_of = self._pieces_of
        pieces: list[str] = []
        for word in line.strip("\r\n ").split(" "):
            if word:
                pieces.extend(pieces_of(word))
        return pieces

    def encode_batch(self, texts: Sequence[str]) -> list[list[str]]:
        words = [moses_words(t, self._normalizer, self._tokenizer, self._aggressive) for t in texts]
        if self._spm is not None:
            # SentencePiece encodes a whole list in C++.
            pieces = self._spm.encode(words, out_type=str)
        elif self._bpe is not None:
            pieces = [self._subwords(w) for w in words]
        else:
            pieces = [w.split() for w in words]
        if self._prefix:
            pieces = [self._prefix + p if p else p for p in pieces]
        return pieces


class TargetDecoder:
    """Model output tokens -> detokenised target text."""

    def __init__(self, model_dir: ModelDir):
        card = model_dir.card
        spec = card.postprocess
        self._subword = spec.subword
        self._spm = (
            spm.SentencePieceProcessor(model_file=str(model_dir.path(spec.sentencepiece_model or "")))
            if spec.subword == "sentencepiece"
            else None
        )
        self._detokenizer = MosesDetokenizer(lang=card.target_lang) if spec.detokenize == "moses" else None

    def decode(self, tokens: Sequence[str]) -> str:
        if self._spm is not None:
            text = self._spm.decode_pieces(list(tokens))
        elif self._subword == "bpe":
            joined = " ".join(tokens).replace(f"{BPE_SEPARATOR} ", "")
            text = joined.removesuffix(BPE_SEPARATOR)
        else:
            text = " ".join(tokens)
        if self._detokenizer is not None:
            text = self._detokenizer.detokenize(text.split())
        return text.strip()


# The text chain of a text process (:class:`TextProcesses`), built once there.
_chain: tuple[SourceEncoder, TargetDecoder] | None = None


def _start_chain(model_root: str) -> None:
    global _chain
    model_dir = ModelDir(model_root)
    _chain = SourceEncoder(model_dir), TargetDecoder(model_dir)


def _encode(texts: list[str]) -> list[list[str]]:
    assert _chain is not None
    return _chain[0].encode_batch(texts)


def _decode(token_lists: list[list[str]]) -> list[str]:
    assert _chain is not None
    return [_chain[1].decode(tokens) for tokens in token_lists]


class TextProcesses:
    """The text chain (:class:`SourceEncoder`, :class:`TargetDecoder`) in ``processes`` processes of its own: a list
    is cut into one slice per process and comes back in order, each item as this process's chain would give it
    (the chain works sentence by sentence). Started lazily ("spawn": nothing of the caller's threads is copied)."""

    def __init__(self, model_dir: ModelDir, processes: int) -> None:
        self._root, self._processes = str(model_dir.root), processes
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _map(self, function: Callable[[list[Any]], list[Any]], items: Sequence[Any]) -> list[Any]:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self._processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start_chain, initargs=(self._root,))
        size = max(1, -(-len(items) // self._processes))
        slices = [list(items[k:k + size]) for k in range(0, len(items), size)]
        return [item for part in self._pool.map(function, slices) for item in part]

    def encode_batch(self, texts: Sequence[str]) -> list[list[str]]:
        return self._map(_encode, texts)

    def decode_all(self, token_lists: Sequence[Sequence[str]]) -> list[str]:
        return self._map(_decode, token_lists)

    def __getstate__(self) -> dict[str, Any]:  # a copy in another process starts its own processes
        return {"_root": self._root, "_processes": self._processes}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(ModelDir(state["_root"]), state["_processes"])
