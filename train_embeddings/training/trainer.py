"""The training loop of ``paranmt train`` (ParaNMT-50M §4–5): :class:`Trainer` and :func:`train`. What one update
step does and what a run writes is the command's help, the docstring of :mod:`train_embeddings.train_command`.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import torch

from configs.schema import ParaNMTConfig, TrainConfig
from paranmt.core.word_vectors import kumo_data
from train_embeddings.evaluation.dev_evaluation import EvaluateFn, default_evaluate_fn
from train_embeddings.losses.margin_loss import MarginLoss, margin_statistics
from train_embeddings.losses.negative_mining import MegaBatchMiner, MinedNegatives
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.models.model_io import save_model
from train_embeddings.models.word_sequences import scramble_mask
from train_embeddings.training.checkpoint import CHECKPOINT, TrainingError
from train_embeddings.training.preparation import TrainingSetup, prepare_training, torch_threads, train_settings
from train_embeddings.training.reporting import TRAINER_LOG, epochs_done
from train_embeddings.vocab import SentenceBatch

__all__ = ["CHECKPOINT", "EvaluateFn", "TrainResult", "Trainer", "TrainingError", "default_evaluate_fn",
           "regularization", "train"]

log = logging.getLogger(TRAINER_LOG)

#: ``train(evaluate_fn=...)``: evaluate on the dev STS sets the config names (``None``: no evaluation).
DEFAULT_EVALUATION: Literal["default"] = "default"


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


class Trainer:
    """The training loop (one update step: :mod:`train_embeddings.train_command`): the rest of the run's epochs,
    mining each mega-batch's negatives and updating on its mini-batches, evaluating and checkpointing at the
    schedule's points, until ``cfg.epochs`` or ``cfg.max_steps``; then ``model/`` and the metrics.

    Evaluation runs ``evals_per_epoch`` times per epoch through ``evaluate_fn(model) -> dict``; the default calls
    ``train_embeddings.evaluation.sts.evaluator.dev_score(model.encode)``.

    It works with one :class:`~train_embeddings.training.preparation.TrainingSetup`, as
    :func:`~train_embeddings.training.preparation.prepare_training` builds it (its fields say what each part is).
    Requirements: ``setup.state.encoder`` is on ``setup.device``; ``setup.state.position`` is a point of
    ``setup.batches``' seeded stream (fresh, or restored from the checkpoint ``setup.checkpointer`` wrote), so a
    resumed run continues bit-identically. One :meth:`run` per Trainer.
    """

    def __init__(self, setup: TrainingSetup) -> None:
        self.setup = setup
        self.loss_fn: Callable[..., torch.Tensor] = MarginLoss(setup.cfg.margin)
        self.miner = MegaBatchMiner(setup.cfg.negatives)
        self.losses: list[float] = []  # of this call's updates

    def run(self) -> TrainResult:
        """Train from where ``state`` is to the end of the run (or ``max_steps``) and write the outputs."""
        self._train()
        return self._finish()

    def _train(self) -> None:
        """Epochs until ``epochs`` or ``max_steps``; a checkpoint at every evaluation point and epoch end."""
        state = self.setup.state
        stop = self.setup.cfg.max_steps is not None and state.step >= self.setup.cfg.max_steps
        try:
            while state.position.epoch < self.setup.cfg.epochs and not stop:
                stop = self._train_epoch()
                if stop and (state.position.minibatch or state.position.pairs_done < state.n_pairs):
                    break  # stopped inside the epoch: the checkpoint already holds this position
                state.next_epoch()
                self.setup.checkpointer.save(state, None)
        finally:
            self.setup.progress.close()
        if self.setup.progress.window:
            self.setup.progress.flush()
            # same position; the history now has the last log entry
            self.setup.checkpointer.save(state, state.negatives)

    def _train_epoch(self) -> bool:
        """The rest of the current epoch's mega-batches; True when ``max_steps`` stopped it."""
        state = self.setup.state
        t_data = time.perf_counter()
        for batch in self.setup.batches.epoch(state.position.epoch, skip=state.position.pairs_done):
            if batch.features is None or batch.groups is None:  # a lone last pair has no possible negative
                state.position.pairs_done += batch.n
                continue
            self.setup.timing["data_s"] += time.perf_counter() - t_data
            state.start_megabatch(self._negatives(batch.features, batch.n, batch.groups), batch.n)
            if self._train_megabatch(batch.features):
                return True
            t_data = time.perf_counter()
        return False

    def _negatives(self, features: SentenceBatch, n: int, groups: torch.Tensor) -> MinedNegatives:
        """The mega-batch's negatives: mined, or those saved with the checkpoint a resume started inside it."""
        state = self.setup.state
        if state.resumed_negatives is not None:
            negatives, state.resumed_negatives = state.resumed_negatives.to(self.setup.device), None
            return negatives
        t0 = time.perf_counter()
        negatives = self._mine(state.encoder, features, n, groups, state.generator)
        self._sync()
        self.setup.timing["mining_s"] += time.perf_counter() - t0
        return negatives

    def _train_megabatch(self, features: SentenceBatch) -> bool:
        """The remaining mini-batches of the mega-batch in progress, evaluating and checkpointing at the
        evaluation points; True when ``max_steps`` stopped it."""
        cfg, state, timing = self.setup.cfg, self.setup.state, self.setup.timing
        n, negatives = state.megabatch_size, state.negatives
        assert negatives is not None
        t_train = time.perf_counter()
        stop = False
        for j in range(state.position.minibatch, math.ceil(n / cfg.batch_size)):
            idx = torch.arange(j * cfg.batch_size, min((j + 1) * cfg.batch_size, n), device=self.setup.device)
            value, statistics = self._update(features, negatives, idx, n)
            self._record(value, statistics, j)
            local = state.step - state.position.epoch_start_step
            stop = cfg.max_steps is not None and state.step >= cfg.max_steps
            if local in self.setup.schedule.eval_points or stop:
                self._sync()
                timing["train_s"] += time.perf_counter() - t_train
                if local in self.setup.schedule.eval_points and self.setup.evaluator is not None:
                    with self._unseen_words_mapped():
                        self.setup.evaluator(self.setup.model, state)
                state.finish_megabatch_if_done(cfg.batch_size)
                self.setup.checkpointer.save(state, state.negatives)
                t_train = time.perf_counter()
                if stop:
                    break
        state.finish_megabatch_if_done(cfg.batch_size)
        self._sync()
        timing["train_s"] += time.perf_counter() - t_train
        return stop

    def _record(self, value: float, statistics: torch.Tensor, minibatch: int) -> None:
        """Count the update just made on mini-batch ``minibatch``; a non-finite loss ends the run."""
        position = self.setup.state.position
        self.setup.progress.add_statistics(statistics)
        position.step += 1
        position.minibatch = minibatch + 1
        if not math.isfinite(value):
            saved = self.setup.checkpointer.path
            raise TrainingError(
                f"loss is {value} at step {position.step} (epoch {position.epoch + 1}, mega-batch "
                f"{position.megabatch + 1}, mini-batch {minibatch + 1}); lower --lr or set --grad-clip"
                + (f" (the last good checkpoint is {saved})" if saved.exists() else ""))
        self.losses.append(value)
        self.setup.progress.record(value)

    def _unseen_words_mapped(self) -> AbstractContextManager[None]:
        """Around an evaluation or a save: the frozen pretrained words carried by the map the trained words
        define (:mod:`train_embeddings.training.unseen_words`), when ``unseen_words`` is ``mapped`` and there are
        any."""
        return self.setup.unseen.applied(self.setup.state.encoder) if self.setup.unseen is not None else nullcontext()

    def _finish(self) -> TrainResult:
        """Write ``model/``, then ``metrics.json`` and ``curves.png`` through the metrics sink."""
        state, out = self.setup.state, self.setup.out_dir
        step, steps_per_epoch = state.step, self.setup.schedule.steps_per_epoch
        finished = state.position.epoch >= self.setup.cfg.epochs
        with self._unseen_words_mapped():
            model_dir = save_model(self.setup.model, out / "model", extra={
                "trained_steps": step, "finished": finished,
                "unseen_words": "mapped" if self.setup.unseen is not None else "pretrained"})
        metrics_path, curves_path = self.setup.metrics.write(state, self.setup.schedule, self.setup.timing, finished)
        best = state.best
        return TrainResult(out, step, epochs_done(step, steps_per_epoch), finished, self.losses,
                           state.history["evaluations"], best, model_dir, out / "best" if best is not None else None,
                           metrics_path, curves_path, {k: round(v, 4) for k, v in self.setup.timing.items()})

    # ------------------------------------------------------------------------------------------ steps

    def _sync(self) -> None:
        if self.setup.device.type == "cuda":
            torch.cuda.synchronize()

    def _mine(self, encoder: SentenceEncoder, features: SentenceBatch, n: int, groups: torch.Tensor,
              generator: torch.Generator) -> MinedNegatives:
        encoder.eval()
        chunk = self.setup.cfg.encode_batch_size
        with torch.no_grad():
            parts = [encoder(features.select(torch.arange(start, min(start + chunk, 2 * n),
                                                          device=self.setup.device)))
                     for start in range(0, 2 * n, chunk)]
        encoder.train()
        embeddings = torch.cat(parts)
        return self.miner(embeddings[:n], embeddings[n:], groups, generator)

    def _update(self, features: SentenceBatch, negatives: MinedNegatives, idx: torch.Tensor,
                n: int) -> tuple[float, torch.Tensor]:
        """One update on the mini-batch ``idx``: (the objective's value, :func:`margin_statistics` of the step)."""
        encoder, optimizer, cfg = self.setup.state.encoder, self.setup.state.optimizer, self.setup.cfg
        b = idx.numel()
        partner = idx + n
        selection = torch.cat([idx, partner, negatives.index[idx], negatives.index[partner]])
        batch = features.select(selection)
        scramble = None
        if encoder.recurrent and cfg.scramble > 0:
            pairs = scramble_mask(b, cfg.scramble, self.setup.state.generator).to(self.setup.device)
            scramble = torch.cat([pairs, pairs, torch.zeros(2 * b, dtype=torch.bool, device=self.setup.device)])
        embeddings = encoder(batch, scramble)
        s, s_prime, t, t_prime = embeddings.split(b)
        loss = self.loss_fn(s, s_prime, t, t_prime, negatives.valid[idx], negatives.valid[partner])
        if cfg.paraphrase_weight != 1.0:
            loss = cfg.paraphrase_weight * loss
        auxiliary = encoder.auxiliary_loss(batch)  # the static teacher loss and pull
        if auxiliary is not None:
            loss = loss + auxiliary
        statistics = margin_statistics(s, s_prime, t, t_prime, negatives.valid[idx], negatives.valid[partner],
                                       margin=cfg.margin)
        penalty = regularization(encoder, cfg.lambda_c, cfg.lambda_w, self.setup.state.initial_words)
        if penalty is not None:
            loss = loss + penalty
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if cfg.grad_clip is not None:
            torch.nn.utils.clip_grad_norm_(encoder.parameters(), cfg.grad_clip)
        optimizer.step()
        return float(loss.detach()), statistics


def train(config: ParaNMTConfig | TrainConfig, out_dir: str | Path, *, resume: bool = False,
          evaluate_fn: EvaluateFn | Literal["default"] | None = DEFAULT_EVALUATION, progress: bool | None = None,
          overwrite: bool = False) -> TrainResult:
    """Train a model as ``config.train`` says, writing into ``out_dir`` (see :class:`Trainer`). An ``out_dir``
    that holds this run (same settings) is continued; one that holds a different run is an error unless
    ``overwrite`` (which deletes it first). Set-up and training run with ``train.threads`` torch threads.

    The set-up is :func:`~train_embeddings.training.preparation.prepare_training` (the pairs, vocabularies, encoder,
    optimiser state and schedule, in the order the data flows), with :mod:`~train_embeddings.training.checkpoint`
    (``checkpoint.pt``, the continue-or-refuse rule for a run folder), :mod:`~train_embeddings.training.megabatches`
    (the data loader), :mod:`~train_embeddings.evaluation.dev_evaluation` (dev scoring and ``best/``) and
    :mod:`~train_embeddings.training.reporting` (loss log, progress bar, false-negative warning, ``metrics.json``,
    ``curves.png``)."""
    with torch_threads(train_settings(config)[0].threads):
        setup = prepare_training(config, out_dir, resume=resume, evaluate_fn=evaluate_fn, progress=progress,
                                 overwrite=overwrite)
        return Trainer(setup).run()


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
    if kumo_data() is None:
        return config  # the Trainer warns that the words start random
    # Not logged here: a bad input must stay one line on stderr; the Trainer logs the vectors once the data is read.
    return config.model_copy(update={"train": train_cfg.model_copy(update={"word_vectors": "kumo"})})

