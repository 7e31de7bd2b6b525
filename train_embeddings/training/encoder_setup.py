"""The encoder a training run starts from: a new one, seeded and initialised from pretrained word vectors, with
vocabularies built from the training pairs; or the one a checkpoint holds, with the run's saved vocabularies."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import torch

from configs.schema import TrainConfig
from core.text import MOSES_EN
from core.word_vectors import WordVectors, load_word_vectors
from train_embeddings.models.encoder import SentenceEncoder, build_encoder
from train_embeddings.models.spec import ModelSpec
from train_embeddings.static.teacher import STATIC
from train_embeddings.training.data import PairSource, TrainDataError
from train_embeddings.training.progress_log import TRAINER_LOG
from train_embeddings.training.unseen_words import ANCHORS, UnseenWordMap
from train_embeddings.training.vocab_building import Vocabularies, build_vocabularies, uses_words
from train_embeddings.vocab import WordVocab

__all__ = ["StartingModel", "initial_word_vectors", "model_spec", "new_model", "pretrained_rows", "stored_model"]

log = logging.getLogger(TRAINER_LOG)


@dataclass
class StartingModel:
    """An encoder (on the CPU, its weights as initialised or as checkpointed), its vocabularies and the number of
    training pairs it is trained on (counted once, after the filters; a resume reads it from the checkpoint)."""

    encoder: SentenceEncoder
    vocabularies: Vocabularies
    n_pairs: int


def initial_word_vectors(cfg: TrainConfig) -> WordVectors | None:
    """``cfg.word_vectors`` loaded (``kumo``: GloVe 6B 50d), or None for a model without words or (with a warning)
    one whose words start random."""
    if not uses_words(TrainConfig.parse_model(cfg.model)[0]):
        return None
    if cfg.word_vectors is None:
        log.warning("%s starts from random %d-d word vectors (train.word_vectors is None): expect a much weaker "
                    "model than from pretrained vectors; pass --word-vectors kumo (GloVe 6B 50d, installed with "
                    "paranmt) or a vector file", cfg.model, cfg.word_dim)
        return None
    fmt = "kumo" if cfg.word_vectors == "kumo" else cfg.word_vectors_format
    path = None if cfg.word_vectors == "kumo" else cfg.word_vectors
    vectors = load_word_vectors(path, fmt)
    log.info("initial word vectors: %r", vectors)
    return vectors


def model_spec(cfg: TrainConfig, vocabularies: Vocabularies, word_dim: int, teacher_dim: int = 0) -> ModelSpec:
    """The architecture ``cfg`` asks for, sized by ``vocabularies``; ``word_dim``: the pretrained vectors' size, or
    ``cfg.word_dim`` without them; ``teacher_dim``: the static teacher loss head's output size (0: none)."""
    components, combine = TrainConfig.parse_model(cfg.model)
    words, trigrams, pieces = vocabularies.words, vocabularies.trigrams, vocabularies.pieces
    static = vocabularies.static
    return ModelSpec(components=list(components), combine=combine, word_dim=word_dim,
                     trigram_dim=cfg.trigram_dim, lstm_dim=cfg.lstm_dim,
                     n_words=len(words) if words else 0, n_trainable_words=words.n_trainable if words else 0,
                     n_trigrams=len(trigrams) if trigrams else 0,
                     tokenizer={**MOSES_EN, "lowercase": cfg.lowercase},
                     hidden_dim=cfg.hidden_dim or 0, dan_layers=cfg.dan_layers,
                     dan_activation=cfg.dan_activation, rnn_activation=cfg.rnn_activation,
                     peep_pool=cfg.peep_pool, cse_widths=list(cfg.cse_widths),
                     cse_maps=cfg.cse_maps, sp_dim=cfg.sp_dim,
                     n_pieces=len(pieces) if pieces else 0,
                     static_dim=int(static.initial.shape[1]) if static is not None and static.initial is not None
                     else 0,
                     n_static_tokens=len(static) if static is not None else 0,
                     static_teacher_dim=teacher_dim if static is not None else 0)


def pretrained_rows(pretrained: WordVectors, words: WordVocab) -> tuple[torch.Tensor, torch.Tensor]:
    """The pretrained vectors of ``words`` (zero rows where there is none) and which rows have one."""
    rows = pretrained.lookup(pa.array(words.words, pa.string()))
    known = rows >= 0
    known[:2] = False
    matrix = np.zeros((len(words), pretrained.dim), np.float32)
    matrix[known] = pretrained.matrix[rows[known]]
    have = int(known[:words.n_trainable].sum())
    log.info("%d of %d trainable words have pretrained vectors; %d frozen pretrained words",
             have, words.n_trainable, words.n_frozen)
    if have == 0:
        log.warning("none of the %d training words has a vector in %s: every word starts random (check that the "
                    "file holds English words, lower-cased when train.lowercase is on)", words.n_trainable,
                    pretrained.source)
    return torch.from_numpy(matrix), torch.from_numpy(known)


def new_model(cfg: TrainConfig, source: PairSource, vocab_dir: Path, seed: int, teacher_dim: int = 0) -> StartingModel:
    """A new encoder (weights drawn with ``seed``, the global torch RNG left as it was), with vocabularies built
    from ``source`` and saved to ``vocab_dir`` (with the unseen-word anchors when there are frozen words).
    Raises :class:`~train_embeddings.training.data.TrainDataError` when fewer than 2 pairs pass the filters."""
    n_pairs = source.count()
    if n_pairs < 2:
        raise TrainDataError(f"{n_pairs} training pair(s) in {source.path} after the filters "
                             f"({source.describe_filter()}); at least 2 are needed")
    pretrained = initial_word_vectors(cfg)
    vocabularies = build_vocabularies(source, cfg, seed, pretrained)
    vocabularies.save(vocab_dir)
    spec = model_spec(cfg, vocabularies, pretrained.dim if pretrained is not None else cfg.word_dim, teacher_dim)
    vectors = known = None
    words = vocabularies.words
    if pretrained is not None and words is not None:
        vectors, known = pretrained_rows(pretrained, words)
        if words.n_frozen:  # the anchors of unseen_words: mapped (kept for a resumed run too)
            n = words.n_trainable
            UnseenWordMap(vectors[:n].clone(), known[:n].clone()).save(vocab_dir / ANCHORS)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        encoder = build_encoder(spec, vectors, known)
    if vocabularies.static is not None and vocabularies.static.initial is not None:
        encoder.parts[STATIC].initialise(vocabularies.static.initial)
    return StartingModel(encoder, vocabularies, n_pairs)


def stored_model(cfg: TrainConfig, vocab_dir: Path, checkpoint: dict[str, Any]) -> StartingModel:
    """The ``checkpoint``'s encoder, with the vocabularies saved in ``vocab_dir``."""
    vocabularies = Vocabularies.load(vocab_dir, TrainConfig.parse_model(cfg.model)[0])
    encoder = SentenceEncoder(ModelSpec.from_json(json.loads(checkpoint["spec"])))
    encoder.load_state_dict(checkpoint["model"])
    return StartingModel(encoder, vocabularies, int(checkpoint["n_pairs"]))
