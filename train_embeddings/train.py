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
``train_embeddings.sts.dev_score(model.encode)`` (STS 2017, 250 pairs) when that module is available, and is
skipped with a logged note when it is not.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import torch
from tqdm import tqdm

from configs import ConfigError, add_config_arguments, load_config
from configs.command_line import ArgumentParser, command_name
from configs.schema import ParaNMTConfig, TrainConfig
from core import pair_schema as S
from train_embeddings.data import PairSource, TrainDataError, tsv_to_parquet
from train_embeddings.losses import MARGIN_STATISTICS, MarginLoss, MegaBatchMiner, MinedNegatives, margin_statistics
from train_embeddings.model_io import save_model
from train_embeddings.models import EmbeddingModel, ModelSpec, SentenceEncoder, build_encoder, scramble_mask
from train_embeddings.vocab import (
    Featurizer,
    SentenceBatch,
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)

__all__ = ["CHECKPOINT", "EvaluateFn", "TrainResult", "Trainer", "TrainingError", "build_optimizer", "build_parser",
           "default_evaluate_fn", "main", "regularization", "train"]

log = logging.getLogger(__name__)

CHECKPOINT = "checkpoint.pt"
CHECKPOINT_FORMAT = 1
EvaluateFn = Callable[[EmbeddingModel], dict[str, float]]
_DEFAULT = "default"

# Settings a resumed run may change; every other train.* field must match the checkpoint's.
_RESUMABLE_CHANGES = {"epochs", "max_steps", "evals_per_epoch", "log_every", "device", "select_metric",
                      "encode_batch_size", "lr", "grad_clip", "threads"}


class TrainingError(RuntimeError):
    """Training cannot go on (a non-finite loss, an incompatible checkpoint); the message names the step."""


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


def default_evaluate_fn() -> EvaluateFn | None:
    """``{"dev": Pearson r on STS 2017}`` through ``train_embeddings.sts.dev_score(encode)``; None (with a logged
    note) when that module or function is not available."""
    try:
        from train_embeddings import sts  # written alongside; imported lazily so training never depends on it

        dev_score = sts.dev_score
    except (ImportError, AttributeError) as exc:
        log.warning("no STS dev evaluation available (%s): evaluation skipped, no best/ checkpoint", exc)
        return None

    def evaluate(model: EmbeddingModel) -> dict[str, float]:
        result = dev_score(model.encode)
        if isinstance(result, dict):
            return {str(k): float(v) for k, v in result.items() if isinstance(v, int | float)}
        return {"dev": float(result)}

    return evaluate


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


def _steps_in_epoch(n_pairs: int, megabatch_pairs: int, batch_size: int) -> int:
    full, rest = divmod(n_pairs, megabatch_pairs)
    return full * math.ceil(megabatch_pairs / batch_size) + (math.ceil(rest / batch_size) if rest >= 2 else 0)


def _rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {"torch": torch.get_rng_state(), "python": list(random.getstate()[1]),
                             "python_version": random.getstate()[0]}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(state["torch"])
    random.setstate((state["python_version"], tuple(state["python"]), None))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


class Trainer:
    """One training run in ``out_dir`` (see the module docstring). ``evaluate_fn``: ``"default"`` (STS 2017 dev
    when available), None (no evaluation), or any ``EmbeddingModel -> dict`` function."""

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
        self.initial_words: list[torch.Tensor] | None = None  # λ_w anchors, set when a run starts

    # ------------------------------------------------------------------------------------------ setup

    def _uses_words(self) -> bool:
        return any(c != "trigram" for c in self.components)

    def _load_pretrained(self) -> Any:
        if self.cfg.word_vectors is None or not self._uses_words():
            return None
        from core.word_vectors import load_word_vectors

        fmt = "kumo" if self.cfg.word_vectors == "kumo" else self.cfg.word_vectors_format
        path = None if self.cfg.word_vectors == "kumo" else self.cfg.word_vectors
        vectors = load_word_vectors(path, fmt)
        log.info("initial word vectors: %r", vectors)
        return vectors

    def _build_vocabularies(self, source: PairSource, pretrained: Any) -> tuple[WordVocab | None, TrigramVocab | None]:
        words: Any = None
        trigram_counts: tuple[np.ndarray, np.ndarray] | None = None
        uses_trigrams = "trigram" in self.components
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
        return word_vocab, trigram_vocab

    def _spec(self, words: WordVocab | None, trigrams: TrigramVocab | None, word_dim: int) -> ModelSpec:
        return ModelSpec(components=list(self.components), combine=self.combine, word_dim=word_dim,
                         trigram_dim=self.cfg.trigram_dim, lstm_dim=self.cfg.lstm_dim,
                         n_words=len(words) if words else 0, n_trainable_words=words.n_trainable if words else 0,
                         n_trigrams=len(trigrams) if trigrams else 0,
                         tokenizer={"kind": "moses", "lang": "en", "normalize_punctuation": True, "escape": False,
                                    "lowercase": self.cfg.lowercase},
                         hidden_dim=self.cfg.hidden_dim or 0, dan_layers=self.cfg.dan_layers,
                         dan_activation=self.cfg.dan_activation, rnn_activation=self.cfg.rnn_activation,
                         peep_pool=self.cfg.peep_pool, cse_widths=list(self.cfg.cse_widths),
                         cse_maps=self.cfg.cse_maps)

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

    def _changed_settings(self, checkpoint: dict[str, Any]) -> list[str]:
        """``train.<key> <stored> -> <current>`` for every setting a resume may not change."""
        stored, current = json.loads(checkpoint["signature"]), self._signature()
        return [f"train.{k} {stored.get(k)!r} -> {current.get(k)!r}"
                for k in sorted(set(stored) | set(current)) if stored.get(k) != current.get(k)]

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
        cfg = self.cfg
        out = self.out_dir
        checkpoint_path = out / CHECKPOINT
        checkpoint: dict[str, Any] | None = None
        if self.overwrite and out.exists():
            shutil.rmtree(out)
        elif checkpoint_path.exists():
            checkpoint = torch.load(checkpoint_path, map_location="cpu", weights_only=True)
            if checkpoint.get("format") != CHECKPOINT_FORMAT:
                raise TrainingError(f"{checkpoint_path}: checkpoint format {checkpoint.get('format')}, this code "
                                    f"reads {CHECKPOINT_FORMAT}")
            # One rule for every tool's run folder: the same run continues, a different one needs --overwrite.
            changed = self._changed_settings(checkpoint)
            if changed and resume:
                raise TrainingError("--resume with settings that differ from the checkpoint's: " + ", ".join(changed))
            if changed:
                raise TrainingError(f"{out} holds a different training run ({', '.join(changed)}); use --overwrite "
                                    "to replace it, or choose another --out")
            if not resume:
                log.info("%s holds this run (same settings): continuing it", out)
            resume = True
        if resume and checkpoint is None:
            raise TrainingError(f"--resume: no {CHECKPOINT} in {out}")
        out.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        source = self._open_data(out)
        if checkpoint is not None:
            words = WordVocab.load(out / "vocab" / "words.json") if self._uses_words() else None
            trigrams = TrigramVocab.load(out / "vocab" / "trigrams.json") if "trigram" in self.components else None
            spec = ModelSpec.from_json(json.loads(checkpoint["spec"]))
            encoder = SentenceEncoder(spec)
            encoder.load_state_dict(checkpoint["model"])
            n_pairs = int(checkpoint["n_pairs"])
            history = json.loads(checkpoint["history"])
        else:
            n_pairs = source.count()
            if n_pairs < 2:
                raise TrainDataError(f"{n_pairs} training pair(s) in {source.path} after the filters "
                                     f"({source.describe_filter()}); at least 2 are needed")
            pretrained = self._load_pretrained()
            words, trigrams = self._build_vocabularies(source, pretrained)
            (out / "vocab").mkdir(exist_ok=True)
            if words is not None:
                words.save(out / "vocab" / "words.json")
            if trigrams is not None:
                trigrams.save(out / "vocab" / "trigrams.json")
            word_dim = pretrained.dim if pretrained is not None else cfg.word_dim
            spec = self._spec(words, trigrams, word_dim)
            vectors = known = None
            if pretrained is not None and words is not None:
                rows = pretrained.lookup(pa.array(words.words, pa.string()))
                known_np = rows >= 0
                known_np[:2] = False
                matrix = np.zeros((len(words), pretrained.dim), np.float32)
                matrix[known_np] = pretrained.matrix[rows[known_np]]
                vectors, known = torch.from_numpy(matrix), torch.from_numpy(known_np)
                log.info("%d of %d trainable words have pretrained vectors; %d frozen pretrained words",
                         int(known_np[:words.n_trainable].sum()), words.n_trainable, words.n_frozen)
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(self.seed)
                encoder = build_encoder(spec, vectors, known)
            history = {"log": [], "evaluations": [], "best": None}
        encoder.to(self.device)
        encoder.train()
        featurizer = Featurizer(words, trigrams, lowercase=cfg.lowercase)
        model_view = EmbeddingModel(spec, encoder, words, trigrams)
        optimizer = build_optimizer(cfg.optimizer, encoder.parameters(), cfg.lr)
        # λ_w anchors: the word tables as initialised (a resumed run reads them from its checkpoint).
        self.initial_words = None
        if cfg.lambda_w > 0:
            stored = checkpoint.get("initial_words") if checkpoint is not None else None
            self.initial_words = [w.to(self.device) for w in stored] if stored is not None else [
                t.weight.detach().clone() for t in encoder.word_tables()]
        generator = torch.Generator().manual_seed(self.seed)
        encoder.set_generator(generator)
        position = {"epoch": 0, "megabatch": 0, "pairs_done": 0, "minibatch": 0, "step": 0, "epoch_start_step": 0}
        saved_negatives: MinedNegatives | None = None
        if checkpoint is not None:
            optimizer.load_state_dict(checkpoint["optimizer"])
            for group in optimizer.param_groups:
                group["lr"] = cfg.lr
            generator.set_state(checkpoint["generator"])
            _set_rng_state(checkpoint["rng"])
            position = {k: int(v) for k, v in json.loads(checkpoint["position"]).items()}
            if checkpoint.get("negatives_index") is not None:
                saved_negatives = MinedNegatives(checkpoint["negatives_index"], checkpoint["negatives_valid"])
        else:
            random.seed(self.seed)

        megabatch_pairs = cfg.megabatch * cfg.batch_size
        steps_per_epoch = _steps_in_epoch(n_pairs, megabatch_pairs, cfg.batch_size)
        total_steps = steps_per_epoch * cfg.epochs
        if cfg.max_steps is not None:
            total_steps = min(total_steps, cfg.max_steps)
        # Checkpoints (and evaluations, when there is an evaluate_fn) at evals_per_epoch points of every epoch.
        n_points = min(cfg.evals_per_epoch, steps_per_epoch)
        eval_points = {math.ceil(k * steps_per_epoch / n_points) for k in range(1, n_points + 1)} if n_points else set()
        timing = {"data_s": 0.0, "mining_s": 0.0, "train_s": 0.0, "eval_s": 0.0, "checkpoint_s": 0.0}
        losses: list[float] = []
        window: list[float] = []
        window_statistics: list[torch.Tensor] = []  # margin_statistics per update, reduced once per log entry
        window_started = time.perf_counter()
        step = position["step"]
        best = history.get("best")
        best_dir = out / "best"
        sync = torch.cuda.synchronize if self.device.type == "cuda" else (lambda: None)
        meta = {"n_pairs": n_pairs, "steps_per_epoch": steps_per_epoch, "device": str(self.device),
                "seed": self.seed, "data": source.path, "files": len(source.files),
                "vocab": {"words": len(words) if words else 0, "trainable_words": words.n_trainable if words else 0,
                          "trigrams": len(trigrams) if trigrams else 0},
                "parameters": sum(p.numel() for p in encoder.parameters())}
        log.info("training %s on %d pairs (%d files), %d updates per epoch, device %s", cfg.model, n_pairs,
                 len(source.files), steps_per_epoch, self.device)

        def save_checkpoint(negatives: MinedNegatives | None) -> None:
            t0 = time.perf_counter()
            state = {
                "format": CHECKPOINT_FORMAT,
                "signature": json.dumps(self._signature(), sort_keys=True),
                "spec": json.dumps(spec.to_json()),
                "model": {k: v.detach().cpu() for k, v in encoder.state_dict().items()},
                "optimizer": optimizer.state_dict(),
                "generator": generator.get_state(),
                "rng": _rng_state(),
                "position": json.dumps(position),
                "n_pairs": n_pairs,
                "history": json.dumps(history),
                "negatives_index": None if negatives is None else negatives.index.cpu(),
                "negatives_valid": None if negatives is None else negatives.valid.cpu(),
                "initial_words": None if self.initial_words is None else [w.cpu() for w in self.initial_words],
            }
            tmp = checkpoint_path.with_name(f".{CHECKPOINT}.tmp")
            torch.save(state, tmp)
            os.replace(tmp, checkpoint_path)
            timing["checkpoint_s"] += time.perf_counter() - t0

        def evaluate() -> None:
            nonlocal best
            t0 = time.perf_counter()
            assert self.evaluate_fn is not None
            scores = self.evaluate_fn(model_view)
            encoder.train()
            entry = {"step": step, "epoch": round(position["epoch"] + (step - position["epoch_start_step"])
                                                  / steps_per_epoch, 4), **scores}
            history["evaluations"].append(entry)
            value = scores.get(cfg.select_metric)
            if value is not None and math.isfinite(value) and (best is None or value > best["score"]):
                best = {"step": step, "epoch": entry["epoch"], "metric": cfg.select_metric, "score": value}
                history["best"] = best
                save_model(model_view, best_dir, extra={"trained_steps": step, "best": best})
            elif value is None and not history.get("_noted_metric"):
                log.warning("evaluation gave no %r (got %s): no best/ model is kept", cfg.select_metric,
                            sorted(scores))
                history["_noted_metric"] = True
            timing["eval_s"] += time.perf_counter() - t0
            log.info("step %d: %s", step, ", ".join(f"{k} {v:.4f}" for k, v in scores.items()))

        bar = tqdm(total=total_steps, initial=min(step, total_steps), unit="step", dynamic_ncols=True,
                   disable=(not self.progress) if self.progress is not None else None,
                   desc=f"train {cfg.model}")
        stop = cfg.max_steps is not None and step >= cfg.max_steps
        current: dict[str, Any] = {"negatives": None, "n": 0}  # the mega-batch in progress

        def advance_if_done() -> None:
            """Move the position past the current mega-batch once all its mini-batches are done."""
            if current["n"] and position["minibatch"] >= math.ceil(current["n"] / cfg.batch_size):
                position.update(megabatch=position["megabatch"] + 1, pairs_done=position["pairs_done"] + current["n"],
                                minibatch=0)
                current.update(negatives=None, n=0)

        def log_window() -> None:
            nonlocal window, window_started
            elapsed = time.perf_counter() - window_started
            entry = {"step": step, "epoch": round(position["epoch"] + (step - position["epoch_start_step"])
                                                  / steps_per_epoch, 4),
                     "loss": float(np.mean(window)),
                     "pairs_per_second": len(window) * cfg.batch_size / max(elapsed, 1e-9)}
            if window_statistics:
                means = torch.stack(window_statistics).nanmean(0).tolist()
                entry.update({name: round(value, 4) for name, value in zip(MARGIN_STATISTICS, means, strict=True)})
                window_statistics.clear()
                warn_if_false_negatives(entry)
            history["log"].append(entry)
            bar.set_postfix(loss=f"{entry['loss']:.4f}", pairs_s=f"{entry['pairs_per_second']:.0f}",
                            pos_nearer=f"{entry.get('positive_nearer', float('nan')):.2f}")
            window, window_started = [], time.perf_counter()

        def warn_if_false_negatives(entry: dict[str, Any]) -> None:
            """Once per run, after a fifth of the steps: most mined negatives closer than the paraphrases."""
            nearer = entry["positive_nearer"]
            if history.get("warnings") or step < 0.2 * total_steps or not nearer < 0.5:
                return
            collapsed = entry["positive_cos"] > 0.98 and entry["negative_cos"] > 0.98
            message = (f"step {step}: only {100 * nearer:.0f}% of sentences have their paraphrase nearer than the "
                       f"negative mined from the mega-batch (M={cfg.megabatch}, {2 * cfg.megabatch * cfg.batch_size} "
                       "sentences)" + ("; the embeddings have collapsed (mean cosines of positives and negatives "
                                       f"{entry['positive_cos']:.3f} / {entry['negative_cos']:.3f})" if collapsed
                                       else "") +
                       ". The hardest negatives are probably paraphrases themselves (e.g. near-identical captions "
                       "of other images): try a smaller --megabatch, --negatives mix, or pairs filtered by "
                       "paraphrase score (the paper's training set is the top two deciles).")
            log.warning(message)
            history["warnings"] = [message]

        try:
            while position["epoch"] < cfg.epochs and not stop:
                epoch = position["epoch"]
                t_data = time.perf_counter()
                chunks = source.chunks(megabatch_pairs, self.seed, epoch, skip=position["pairs_done"],
                                       shuffle_buffer=cfg.shuffle_buffer, interleave=cfg.shard_interleave)
                for chunk in chunks:
                    n = len(chunk)
                    if n < 2:  # a lone last pair has no possible negative
                        position["pairs_done"] += n
                        continue
                    features = featurizer(pa.chunked_array([chunk.left, chunk.right])).to(self.device)
                    groups = torch.from_numpy(chunk.groups).to(self.device)
                    timing["data_s"] += time.perf_counter() - t_data
                    if saved_negatives is not None:  # resumed inside this mega-batch: its negatives were saved
                        negatives, saved_negatives = saved_negatives.to(self.device), None
                    else:
                        t0 = time.perf_counter()
                        negatives = self._mine(encoder, features, n, groups, generator)
                        sync()
                        timing["mining_s"] += time.perf_counter() - t0
                    current.update(negatives=negatives, n=n)
                    n_mini = math.ceil(n / cfg.batch_size)
                    t_train = time.perf_counter()
                    for j in range(position["minibatch"], n_mini):
                        idx = torch.arange(j * cfg.batch_size, min((j + 1) * cfg.batch_size, n), device=self.device)
                        value, statistics = self._update(encoder, optimizer, features, negatives, idx, n, generator)
                        window_statistics.append(statistics)
                        step += 1
                        position.update(minibatch=j + 1, step=step)
                        if not math.isfinite(value):
                            raise TrainingError(
                                f"loss is {value} at step {step} (epoch {epoch + 1}, mega-batch "
                                f"{position['megabatch'] + 1}, mini-batch {j + 1}); lower --lr or set --grad-clip "
                                f"(the last good checkpoint is {checkpoint_path})")
                        losses.append(value)
                        window.append(value)
                        bar.update(1)
                        if len(window) >= cfg.log_every:
                            log_window()
                        local = step - position["epoch_start_step"]
                        stop = cfg.max_steps is not None and step >= cfg.max_steps
                        if local in eval_points or stop:
                            sync()
                            timing["train_s"] += time.perf_counter() - t_train
                            if local in eval_points and self.evaluate_fn is not None:
                                evaluate()
                            advance_if_done()
                            save_checkpoint(current["negatives"])
                            t_train = time.perf_counter()
                            if stop:
                                break
                    advance_if_done()
                    sync()
                    timing["train_s"] += time.perf_counter() - t_train
                    if stop:
                        break
                    t_data = time.perf_counter()
                if stop and (position["minibatch"] or position["pairs_done"] < n_pairs):
                    break  # stopped inside the epoch: the checkpoint already holds this position
                position.update(epoch=epoch + 1, megabatch=0, pairs_done=0, minibatch=0, epoch_start_step=step)
                save_checkpoint(None)
        finally:
            bar.close()
        if window:
            log_window()
            save_checkpoint(current["negatives"])  # same position; the history now has the last log entry
        finished = position["epoch"] >= cfg.epochs
        model_dir = save_model(model_view, out / "model", extra={"trained_steps": step, "finished": finished})
        timing["wall_s"] = time.perf_counter() - started
        history.pop("_noted_metric", None)
        metrics = {"config": self.cfg.model_dump(mode="json"), **meta, "total_steps": steps_per_epoch * cfg.epochs,
                   "steps": step, "epochs_done": round(step / steps_per_epoch, 4) if steps_per_epoch else 0.0,
                   "finished": finished, "warnings": history.get("warnings", []), "log": history["log"],
                   "evaluations": history["evaluations"],
                   "best": best, "timing_this_call": {k: round(v, 3) for k, v in timing.items()}}
        metrics_path = out / "metrics.json"
        metrics_path.write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
        curves_path = plot_curves(history, out / "curves.png", title=f"{cfg.model} (M={cfg.megabatch})")
        return TrainResult(out, step, metrics["epochs_done"], finished, losses, history["evaluations"], best,
                           model_dir, best_dir if best is not None else None, metrics_path, curves_path,
                           {k: round(v, 4) for k, v in timing.items()})

    # ------------------------------------------------------------------------------------------ steps

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

    def _update(self, encoder: SentenceEncoder, optimizer: torch.optim.Optimizer, features: SentenceBatch,
                negatives: MinedNegatives, idx: torch.Tensor, n: int, generator: torch.Generator
                ) -> tuple[float, torch.Tensor]:
        """One update on the mini-batch ``idx``: (the objective's value, :func:`margin_statistics` of the step)."""
        b = idx.numel()
        partner = idx + n
        selection = torch.cat([idx, partner, negatives.index[idx], negatives.index[partner]])
        batch = features.select(selection)
        scramble = None
        if encoder.recurrent and self.cfg.scramble > 0:
            pairs = scramble_mask(b, self.cfg.scramble, generator).to(self.device)
            scramble = torch.cat([pairs, pairs, torch.zeros(2 * b, dtype=torch.bool, device=self.device)])
        embeddings = encoder(batch, scramble)
        s, s_prime, t, t_prime = embeddings.split(b)
        loss = self.loss_fn(s, s_prime, t, t_prime, negatives.valid[idx], negatives.valid[partner])
        statistics = margin_statistics(s, s_prime, t, t_prime, negatives.valid[idx], negatives.valid[partner],
                                       margin=self.cfg.margin)
        penalty = regularization(encoder, self.cfg.lambda_c, self.cfg.lambda_w, self.initial_words)
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
    import matplotlib

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


# ---------------------------------------------------------------------------------------------- CLI


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog=command_name("python -m train_embeddings"), description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_renamed("--input", "--data", dest="data",
                  help="training pairs: Parquet file / directory of shards / glob / URL, or a ParaNMT TSV file")
    p.add_argument("--model", help="word | trigram | lstm | blstm | blstm-cat | blstm-max | proj | dan | rnn | irnn | "
                                   "lstm-peep | lstm-peep-nog | cse, or e.g. word,trigram (concatenation) / "
                                   "word+trigram (addition)")
    p.add_renamed("--out", "--output", required=True, type=Path,
                  help="run directory (checkpoint, best/, model/, metrics)")
    add_config_arguments(p, "train.lstm_dim=900")
    p.add_argument("--megabatch", type=int, help="M, mini-batches per mega-batch (default 40)")
    p.add_argument("--epochs", type=int, help="default 5")
    p.add_argument("--batch-size", type=int, help="default 100")
    p.add_argument("--lr", type=float, help="learning rate (default 0.001; ICLR'16 AdaGrad: 0.05)")
    p.add_argument("--optimizer", choices=["adam", "adagrad"], help="default adam")
    p.add_argument("--lambda-c", type=float, help="L2 weight on compositional parameters (ICLR'16; default 0)")
    p.add_argument("--lambda-w", type=float, help="L2 weight toward the initial word vectors (default 0)")
    p.add_argument("--margin", type=float, help="delta (default 0.4)")
    p.add_argument("--scramble", type=float, help="word scrambling rate for recurrent models (default 0.3)")
    p.add_argument("--negatives", choices=["max", "mix"])
    p.add_argument("--word-vectors", help="'kumo' (GloVe 6B 50d), a vector file or a WORD model directory")
    p.add_argument("--grad-clip", type=float, help="max gradient norm")
    p.add_argument("--max-steps", type=int, help="stop after this many updates")
    p.add_argument("--seed", type=int)
    p.add_argument("--device", choices=["auto", "cpu", "cuda"])
    p.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's; 1 is often fastest for "
                                               "WORD/TRIGRAM)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its checkpoint (also done "
                   "without this flag when --out holds a run with the same settings)")
    p.add_argument("--overwrite", action="store_true", help="replace a different run already in --out")
    p.add_argument("--no-eval", action="store_true", help="no dev evaluation (no best/ model)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _cli_path(value: str | None) -> str | None:
    if value is None or value == "kumo" or "://" in value:
        return value
    return str(Path(value).expanduser().absolute())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", force=True)
    try:
        config = load_config(args.config, args.overrides, {
            "train.data": _cli_path(args.data), "train.model": args.model, "train.megabatch": args.megabatch,
            "train.epochs": args.epochs, "train.batch_size": args.batch_size, "train.lr": args.lr,
            "train.margin": args.margin, "train.scramble": args.scramble, "train.negatives": args.negatives,
            "train.word_vectors": _cli_path(args.word_vectors), "train.grad_clip": args.grad_clip,
            "train.max_steps": args.max_steps, "train.seed": args.seed, "train.device": args.device,
            "train.threads": args.threads, "train.optimizer": args.optimizer, "train.lambda_c": args.lambda_c,
            "train.lambda_w": args.lambda_w,
        })
        result = train(config, args.out, resume=args.resume, evaluate_fn=None if args.no_eval else _DEFAULT,
                       progress=False if args.quiet else None, overwrite=args.overwrite)
    except (ConfigError, TrainDataError, TrainingError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    best = result.best
    print(f"{result.steps} updates ({result.epochs_done:g} epochs){'' if result.finished else ', not finished'}; "
          f"model: {result.model_dir}" + (f"; best {best['metric']} {best['score']:.4f} at step {best['step']}: "
                                          f"{result.best_dir}" if best else "")
          + f"; metrics: {result.metrics_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
