"""Everything a :class:`~train_embeddings.training.trainer.Trainer` is given, set up from the settings and a run folder:
the run-folder rule (continue, refuse or overwrite), the pairs, the vocabularies and encoder (new or restored),
the optimiser state, the schedule, the evaluator, the progress log and the metrics sink."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch

from configs.out_paths import make_out_folder, out_folder_problem, remove_created
from configs.schema import ParaNMTConfig, TrainConfig
from train_embeddings.evaluation.dev_evaluation import DevEvaluator, EvaluateFn, default_evaluate_fn
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.training.checkpoint import Checkpointer, TrainingError, run_signature
from train_embeddings.training.encoder_setup import new_model, stored_model
from train_embeddings.training.megabatches import MegaBatches
from train_embeddings.training.progress_log import TRAINER_LOG, ProgressLog
from train_embeddings.training.run_metrics import MetricsWriter, run_facts
from train_embeddings.training.static_training import configure_static, static_teacher_targets
from train_embeddings.training.training_pairs import open_training_pairs
from train_embeddings.training.training_start import start_training_state, training_device
from train_embeddings.training.training_state import Schedule, TrainingState
from train_embeddings.training.unseen_words import ANCHORS, UnseenWordMap

__all__ = ["TrainingSetup", "prepare_training", "torch_threads", "train_settings"]

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


def prepare_training(config: ParaNMTConfig | TrainConfig, out_dir: str | Path, *, resume: bool = False,
                     evaluate_fn: EvaluateFn | Literal["default"] | None = "default",
                     progress: bool | None = None, overwrite: bool = False) -> TrainingSetup:
    """Set up a training call in ``out_dir``: a folder holding the same run (same settings but those a resume may
    change) is continued from its checkpoint, a different run is refused unless ``overwrite`` (which deletes it
    first). ``evaluate_fn``: ``"default"`` (STS 2017 dev), None (no evaluation) or any ``EmbeddingModel ->
    dict`` function; ``progress``: the progress bar (None: tqdm decides). Bad data or settings found here leave no
    folder behind; raises :class:`~configs.ConfigError`, :class:`~train_embeddings.training.data.TrainDataError`,
    :class:`~train_embeddings.training.checkpoint.TrainingError` or (the default evaluation's STS files missing)
    :class:`~train_embeddings.evaluation.sts.benchmarks.StsDataMissing`."""
    cfg, seed = train_settings(config)
    out = Path(out_dir)
    evaluate = default_evaluate_fn() if evaluate_fn == "default" else evaluate_fn
    if evaluate is not None and not callable(evaluate):
        raise TypeError(f"evaluate_fn must be callable, 'default' or None, got {evaluate_fn!r}")
    device = training_device(cfg.device)
    timing = {"data_s": 0.0, "mining_s": 0.0, "train_s": 0.0, "eval_s": 0.0, "checkpoint_s": 0.0}
    checkpointer = Checkpointer(out, run_signature(cfg, seed), timing)
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
