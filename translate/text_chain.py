"""The model card's text chain: raw source text -> model tokens, and model tokens -> detokenised target text.

Source: Moses punctuation normalisation -> Moses tokenisation -> subword (BPE codes via subword-nmt or a
SentencePiece model). Target: undo subwords -> Moses detokenisation. Only real libraries do the work here; the
source's Moses steps are sacremoses' classes with their per-call regex work precompiled (:func:`core.text.fast_moses`,
same output): on a GPU the text chain, not the decoder, sets a single process's pace.
"""

from __future__ import annotations

from collections.abc import Sequence

import sentencepiece as spm
from sacremoses import MosesDetokenizer, MosesPunctNormalizer, MosesTokenizer
from subword_nmt.apply_bpe import BPE

from core.text import fast_moses
from translate.card import ModelDir

BPE_SEPARATOR = "@@"


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
            with open(model_dir.path(spec.bpe_codes or ""), encoding="utf-8") as codes:
                self._bpe = BPE(codes, separator=BPE_SEPARATOR)
        elif spec.subword == "sentencepiece":
            self._spm = spm.SentencePieceProcessor(model_file=str(model_dir.path(spec.sentencepiece_model or "")))
        self._prefix = list(spec.prefix_tokens)

    def encode_batch(self, texts: Sequence[str]) -> list[list[str]]:
        words = [moses_words(t, self._normalizer, self._tokenizer, self._aggressive) for t in texts]
        if self._spm is not None:
            # SentencePiece encodes a whole list in C++.
            pieces = self._spm.encode(words, out_type=str)
        elif self._bpe is not None:
            pieces = [self._bpe.process_line(w).split() if w else [] for w in words]
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
