"""Setting a training run up: what a :class:`~train_embeddings.training.trainer.Trainer` is given, built from the
settings and a run folder in the order the data flows — the run-folder rule (continue, refuse or overwrite), the
pairs (released-ParaNMT TSV tokenised once into the run folder), the vocabularies counted from them, the encoder
(new, seeded and initialised from pretrained word vectors, or as a checkpoint left it) with what a ``static``
component adds, the optimiser state and schedule, the evaluator, the data loader, the progress log and the metrics
sink."""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import torch

from configs import ConfigError
from configs.out_paths import make_out_folder, out_folder_problem, remove_created
from configs.schema import ParaNMTConfig, TrainConfig
from paranmt.core import pair_schema as S
from paranmt.core.text import MOSES_EN
from paranmt.core.word_vectors import WordVectors, load_word_vectors
from train_embeddings.evaluation.dev_evaluation import DevEvaluator, EvaluateFn, default_evaluate_fn
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import SentenceEncoder, build_encoder
from train_embeddings.models.spec import ModelSpec
from train_embeddings.static.pieces import StaticVocab
from train_embeddings.static.teacher import STATIC, distill_teacher
from train_embeddings.static.teacher_targets import TeacherTargets, teacher_targets
from train_embeddings.training.checkpoint import Checkpointer, TrainingError, training_definition
from train_embeddings.training.data import PairSource, TrainDataError, source_sentences, tsv_to_parquet
from train_embeddings.training.megabatches import MegaBatches
from train_embeddings.training.reporting import TRAINER_LOG, MetricsWriter, ProgressLog
from train_embeddings.training.state import Schedule, TrainingState, new_history
from train_embeddings.training.unseen_words import ANCHORS, UnseenWordMap
from train_embeddings.vocab import (
    Featurizer,
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)

__all__ = ["StartingModel", "TrainingSetup", "Vocabularies", "build_optimizer", "build_vocabularies",
           "configure_static", "initial_word_vectors", "model_spec", "new_model", "open_training_pairs",
           "prepare_training", "pretrained_rows", "run_facts", "start_training_state", "static_teacher_targets",
           "stored_model", "torch_threads", "train_settings", "training_device", "uses_words"]

log = logging.getLogger(TRAINER_LOG)


@dataclass
class TrainingSetup:
    """What one training call works with: the :class:`~train_embeddings.training.trainer.Trainer`'s one argument, built
    by :func:`prepare_training`."""

    #: The settings the loop applies: loss margin, negatives, batch sizes, scrambling, regularisers, clipping.
    cfg: TrainConfig
    out_dir: Path
    #: What it trains: encoder, optimiser, generator, data position, history.
    state: TrainingState
    #: The data loader: mega-batches of the seeded shuffled pair stream.
    batches: MegaBatches
    schedule: Schedule
    #: ``state.encoder`` with its vocabularies, for evaluation and saving.
    model: EmbeddingModel
    checkpointer: Checkpointer
    #: Dev scoring and ``best/`` (None: no evaluation).
    evaluator: DevEvaluator | None
    #: The loss log and progress bar.
    progress: ProgressLog
    #: The ``metrics.json`` and ``curves.png`` sink.
    metrics: MetricsWriter
    #: The unseen-word map (``unseen_words: mapped`` with frozen words); None: frozen words keep their pretrained
    #: vectors.
    unseen: UnseenWordMap | None
    device: torch.device
    #: Seconds per phase, shared with the checkpointer and the evaluator.
    timing: dict[str, float]


def train_settings(config: ParaNMTConfig | TrainConfig) -> tuple[TrainConfig, int]:
    """The ``train`` section and the seed in effect (``train.seed``, else the top-level seed)."""
    if isinstance(config, TrainConfig):
        config = ParaNMTConfig(train=config)
    return config.train, config.train.seed if config.train.seed is not None else config.seed


@contextmanager
def torch_threads(threads: int) -> Iterator[None]:
    """torch's CPU threads set to ``threads`` (0: left alone) inside the block, and restored after it."""
    before = torch.get_num_threads()
    try:
        if threads:
            torch.set_num_threads(threads)
        yield
    finally:
        torch.set_num_threads(before)


# -------------------------------------------------------------------------------------------- pairs


def open_training_pairs(cfg: TrainConfig, out: Path) -> PairSource:
    """``cfg``'s pairs (Parquet as they are). TSV is converted into ``out/data/`` unless that folder exists
    (staged in ``out/.data.tmp`` and moved into place, so a killed conversion is redone). Raises
    :class:`~train_embeddings.training.data.TrainDataError` for missing or malformed data."""
    source = PairSource.from_config(cfg)
    if source.format != "tsv":
        return source
    converted = out / "data"
    if not converted.is_dir():
        staging = out / ".data.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        log.info("tokenising %d TSV file(s) once into %s", len(source.files), converted)
        for file in source.files:
            tsv_to_parquet(file, staging, filesystem=source.filesystem if "://" in source.path else None)
        os.replace(staging, converted)
    return PairSource(converted, data_format="parquet", group_column=S.ID if cfg.group_column else None,
                      min_score=cfg.min_score, max_score=cfg.max_score, max_tokens=cfg.max_tokens,
                      only_kept=cfg.only_kept, read_batch_rows=cfg.read_batch_rows)


# ------------------------------------------------------------------------------------- vocabularies


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


# ------------------------------------------------------------------------------------------ encoder


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


# ------------------------------------------------------------------------------- static component


def static_teacher_targets(cfg: TrainConfig, source: PairSource) -> TeacherTargets | None:
    """The teacher vectors of the run's English references when ``static_teacher_loss`` > 0 (else None): the
    human-written side, as Tokenlearn's corpus is human text; the back-translations get no teacher term."""
    if STATIC not in TrainConfig.parse_model(cfg.model)[0] or cfg.static_teacher_loss <= 0:
        return None
    return teacher_targets(source_sentences(source), cfg.teacher, cfg.static_cache)


def configure_static(cfg: TrainConfig, encoder: SentenceEncoder, vocabularies: Vocabularies) -> None:
    """Give the static part its teacher-loss and pull weights (and the pull's anchor, the distilled table)."""
    if STATIC in encoder.parts:
        initial = vocabularies.static.initial if vocabularies.static is not None else None
        encoder.parts[STATIC].configure(cfg.static_teacher_loss, cfg.static_pull, initial)


# ---------------------------------------------------------------------------------- optimiser state


def training_device(name: str) -> torch.device:
    """``auto``: CUDA when available, else the CPU; ``cuda`` without a CUDA device is a :class:`ConfigError`."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ConfigError("train.device is cuda but no CUDA device is available")
    return torch.device(name)


def build_optimizer(name: str, parameters: Iterable[torch.nn.Parameter], lr: float) -> torch.optim.Optimizer:
    """``adam`` (ParaNMT-50M §5.2) or ``adagrad`` (Duchi et al. 2011; ICLR'16 uses it with lr 0.05)."""
    params = [p for p in parameters if p.requires_grad]
    if name == "adam":
        return torch.optim.Adam(params, lr=lr)
    if name == "adagrad":
        return torch.optim.Adagrad(params, lr=lr)
    raise ConfigError(f"train.optimizer must be 'adam' or 'adagrad', got {name!r}")


def start_training_state(cfg: TrainConfig, encoder: SentenceEncoder, n_pairs: int, seed: int,
                         device: torch.device, checkpoint: dict[str, Any] | None = None) -> TrainingState:
    """``encoder`` moved to ``device`` in training mode, with ``cfg.optimizer`` at ``cfg.lr``, a generator seeded
    with ``seed`` and (``lambda_w`` > 0) the word tables as initialised; then brought to where ``checkpoint``
    left the run (a resume may change ``lr``), or, for a new run, the Python RNG seeded with ``seed``."""
    encoder.to(device)
    encoder.train()
    optimizer = build_optimizer(cfg.optimizer, encoder.parameters(), cfg.lr)
    # λ_w anchors: the word tables as initialised (a resumed run reads them from its checkpoint).
    initial_words = None
    if cfg.lambda_w > 0:
        stored = checkpoint.get("initial_words") if checkpoint is not None else None
        initial_words = [w.to(device) for w in stored] if stored is not None else [
            t.weight.detach().clone() for t in encoder.word_tables()]
    generator = torch.Generator().manual_seed(seed)
    encoder.set_generator(generator)
    history = json.loads(checkpoint["history"]) if checkpoint is not None else new_history()
    state = TrainingState(encoder.spec, encoder, optimizer, generator, n_pairs, history, initial_words=initial_words)
    if checkpoint is not None:
        Checkpointer.restore(state, checkpoint, cfg.lr)
    else:
        random.seed(seed)
    return state


def run_facts(n_pairs: int, schedule: Schedule, device: torch.device, seed: int, source: PairSource,
              vocabularies: Vocabularies, encoder: torch.nn.Module) -> dict[str, Any]:
    """What ``metrics.json`` says about the run besides its settings and progress: pairs, updates per epoch,
    device, seed, data (path and files), vocabulary sizes and parameters."""
    return {"n_pairs": n_pairs, "steps_per_epoch": schedule.steps_per_epoch, "device": str(device), "seed": seed,
            "data": source.path, "files": len(source.files), "vocab": vocabularies.sizes(),
            "parameters": sum(p.numel() for p in encoder.parameters())}


# ------------------------------------------------------------------------------------------ the run


def prepare_training(config: ParaNMTConfig | TrainConfig, out_dir: str | Path, *, resume: bool = False,
                     evaluate_fn: EvaluateFn | Literal["default"] | None = "default",
                     progress: bool | None = None, overwrite: bool = False) -> TrainingSetup:
    """Set up a training call in ``out_dir``: a folder holding the same run (same settings but those a resume may
    change) is continued from its checkpoint, a different run is refused unless ``overwrite`` (which deletes it
    first). ``evaluate_fn``: ``"default"`` (STS 2017 dev), None (no evaluation) or any ``EmbeddingModel ->
    dict`` function; ``progress``: the progress bar (None: tqdm decides). Bad data or settings found here leave no
    folder behind; raises :class:`~configs.ConfigError`, :class:`~train_embeddings.training.data.TrainDataError`,
    :class:`~train_embeddings.training.checkpoint.TrainingError` or (the default evaluation's STS files missing)
    :class:`~train_embeddings.evaluation.sts.datasets.StsDataMissing`."""
    cfg, seed = train_settings(config)
    out = Path(out_dir)
    evaluate = default_evaluate_fn() if evaluate_fn == "default" else evaluate_fn
    if evaluate is not None and not callable(evaluate):
        raise TypeError(f"evaluate_fn must be callable, 'default' or None, got {evaluate_fn!r}")
    device = training_device(cfg.device)
    timing = {"data_s": 0.0, "mining_s": 0.0, "train_s": 0.0, "eval_s": 0.0, "checkpoint_s": 0.0}
    checkpointer = Checkpointer(out, training_definition(cfg, seed), timing)
    checkpoint = checkpointer.load_for_run(resume=resume, overwrite=overwrite)
    try:
        created = make_out_folder(out)
    except OSError as error:
        raise TrainingError(out_folder_problem(out, error)) from None
    started = time.perf_counter()
    try:
        source = open_training_pairs(cfg, out)
        targets = static_teacher_targets(cfg, source)
        start = (stored_model(cfg, out / "vocab", checkpoint) if checkpoint is not None
                 else new_model(cfg, source, out / "vocab", seed, targets.dim if targets is not None else 0))
    except BaseException:  # bad data or settings, found before any update: leave no folder behind
        remove_created(created, tree=True)
        raise
    encoder, vocabularies, n_pairs = start.encoder, start.vocabularies, start.n_pairs
    state = start_training_state(cfg, encoder, n_pairs, seed, device, checkpoint)
    schedule = Schedule.plan(n_pairs, cfg.megabatch, cfg.batch_size, cfg.epochs, cfg.max_steps, cfg.evals_per_epoch)
    facts = run_facts(n_pairs, schedule, device, seed, source, vocabularies, encoder)
    log.info("training %s on %d pairs (%d files), %d updates per epoch, device %s", cfg.model, n_pairs,
             len(source.files), schedule.steps_per_epoch, device)
    evaluator = None if evaluate is None else DevEvaluator(evaluate, cfg.select_metric, out / "best",
                                                           schedule.steps_per_epoch, timing)
    configure_static(cfg, encoder, vocabularies)
    featurizer = vocabularies.featurizer(cfg.lowercase)
    featurizer.targets = targets
    batches = MegaBatches(source, featurizer, schedule.megabatch_pairs, seed,
                          shuffle_buffer=cfg.shuffle_buffer, interleave=cfg.shard_interleave, device=device)
    model = EmbeddingModel(state.spec, encoder, vocabularies.words, vocabularies.trigrams, vocabularies.pieces,
                           vocabularies.static)
    progress_log = ProgressLog(cfg, schedule, state, progress)
    anchors = out / "vocab" / ANCHORS
    unseen = (UnseenWordMap.load(anchors, cfg.unseen_words_ridge)
              if cfg.unseen_words == "mapped" and anchors.is_file() else None)
    return TrainingSetup(cfg, out, state, batches, schedule, model, checkpointer, evaluator, progress_log,
                         MetricsWriter(out, cfg, facts, started), unseen, device, timing)
