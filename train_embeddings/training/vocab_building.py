"""The vocabularies of a training run: counted from the training pairs, kept in the run folder's ``vocab/``."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from configs.schema import TrainConfig
from core.word_vectors import WordVectors
from train_embeddings.static.pieces import StaticVocab
from train_embeddings.static.teacher import STATIC, distill_teacher
from train_embeddings.training.data import PairSource
from train_embeddings.training.progress_log import TRAINER_LOG
from train_embeddings.vocab import (
    Featurizer,
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)

__all__ = ["Vocabularies", "build_vocabularies", "uses_words"]

log = logging.getLogger(TRAINER_LOG)


def uses_words(components: Sequence[str]) -> bool:
    """Whether a model of these components has a word table (every component but ``trigram`` and ``sp``)."""
    return any(c not in ("trigram", "sp", STATIC) for c in components)


@dataclass(frozen=True)
class Vocabularies:
    """The word, character-trigram and SentencePiece vocabularies a model's components need (None: not needed).

    Saved as ``words.json``, ``trigrams.json`` and the SentencePiece model in a run's ``vocab/`` folder, from
    which a resumed run reads them back (:meth:`load`) instead of counting again."""

    words: WordVocab | None = None
    trigrams: TrigramVocab | None = None
    pieces: SentencePieceVocab | None = None
    static: StaticVocab | None = None

    def save(self, folder: Path) -> None:
        folder.mkdir(exist_ok=True)
        if self.words is not None:
            self.words.save(folder / "words.json")
        if self.trigrams is not None:
            self.trigrams.save(folder / "trigrams.json")
        if self.pieces is not None:
            self.pieces.save(folder / SentencePieceVocab.FILE)
        if self.static is not None:
            self.static.save(folder)

    @classmethod
    def load(cls, folder: Path, components: Sequence[str]) -> Vocabularies:
        """Those of ``components`` that :meth:`save` wrote into ``folder``."""
        return cls(WordVocab.load(folder / "words.json") if uses_words(components) else None,
                   TrigramVocab.load(folder / "trigrams.json") if "trigram" in components else None,
                   SentencePieceVocab.load(folder / SentencePieceVocab.FILE) if "sp" in components else None,
                   StaticVocab.load(folder) if STATIC in components else None)

    def featurizer(self, lowercase: bool) -> Featurizer:
        return Featurizer(self.words, self.trigrams, lowercase=lowercase, pieces=self.pieces, static=self.static)

    def sizes(self) -> dict[str, int]:
        """Entries per vocabulary (0: none), as ``metrics.json`` reports them."""
        words = self.words
        return {"words": len(words) if words else 0, "trainable_words": words.n_trainable if words else 0,
                "trigrams": len(self.trigrams) if self.trigrams else 0,
                "pieces": len(self.pieces) if self.pieces else 0,
                "static_tokens": len(self.static) if self.static else 0}


def build_vocabularies(source: PairSource, cfg: TrainConfig, seed: int,
                       pretrained: WordVectors | None = None) -> Vocabularies:
    """Count both sides of the first ``cfg.vocab_max_pairs`` pairs of ``source`` (all when None) and build the
    vocabularies ``cfg.model`` needs: words (``min_count``, ``max_vocab``; ``pretrained``'s other words kept frozen
    when ``keep_pretrained_vocab``), trigrams (``trigram_min_count``, ``max_trigrams``) and SentencePiece
    (``sp_vocab_size``, ``sp_model_type``, trained with ``seed``)."""
    components, _ = TrainConfig.parse_model(cfg.model)
    words: Counter | None = None
    trigram_counts: tuple[np.ndarray, np.ndarray] | None = None
    with_words, with_trigrams, with_pieces = uses_words(components), "trigram" in components, "sp" in components
    # static with an extended vocabulary: count the corpus words for the distillation
    with_corpus_words = STATIC in components and cfg.static_extend_vocab > 0
    corpus_words: Counter | None = None
    piece_text: list[str] = []  # sp: the sentences SentencePiece is trained on
    seen = 0
    for table in source.scan():
        if cfg.vocab_max_pairs is not None:
            table = table.slice(0, cfg.vocab_max_pairs - seen)
        for column in ("left", "right"):
            if with_words:
                words = count_words(table[column], cfg.lowercase, words)
            if with_trigrams:
                strings = sentence_strings(table[column], cfg.lowercase, cfg.trigram_trailing_space)
                trigram_counts = count_trigrams(strings, trigram_counts)
            if with_pieces:
                piece_text += sentence_strings(table[column], cfg.lowercase).to_pylist()
            if with_corpus_words:
                corpus_words = count_words(table[column], True, corpus_words)
        seen += table.num_rows
        if cfg.vocab_max_pairs is not None and seen >= cfg.vocab_max_pairs:
            break
    word_vocab = None
    if with_words:
        pretrained_words = pretrained.words.to_pylist() if (pretrained is not None and
                                                            cfg.keep_pretrained_vocab) else None
        word_vocab = WordVocab.build(words or {}, min_count=cfg.min_count, max_size=cfg.max_vocab,
                                     pretrained=pretrained_words, lowercase=cfg.lowercase)
    trigram_vocab = None
    if with_trigrams:
        trigram_vocab = TrigramVocab.build(trigram_counts or (np.zeros(0, np.uint64), np.zeros(0, np.int64)),
                                           min_count=cfg.trigram_min_count, max_size=cfg.max_trigrams,
                                           trailing_space=cfg.trigram_trailing_space)
    piece_vocab = None
    if with_pieces:
        piece_vocab = SentencePieceVocab.train(piece_text, vocab_size=cfg.sp_vocab_size,
                                               model_type=cfg.sp_model_type, seed=seed)
        log.info("SentencePiece (%s): %d pieces from %d sentences", cfg.sp_model_type, len(piece_vocab),
                 len(piece_text))
    static_vocab = None
    if STATIC in components:
        added = [w for w, _ in (corpus_words or Counter()).most_common(cfg.static_extend_vocab)
                 if any(ch.isalpha() for ch in w)]
        static_vocab = distill_teacher(cfg.teacher, cfg.static_pca_dims, added, cfg.static_cache)
        log.info("static: %d teacher tokens (%d corpus words offered), %d-d distilled table", len(static_vocab),
                 len(added), static_vocab.initial.shape[1] if static_vocab.initial is not None else 0)
    return Vocabularies(word_vocab, trigram_vocab, piece_vocab, static_vocab)
