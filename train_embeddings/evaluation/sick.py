"""Supervised heads on sentence embeddings: SICK relatedness and SICK entailment (SemEval 2014, Marelli et al.).

    paranmt sick --model runs/emb/word --task relatedness [--finetune] --output runs/sick/word
    paranmt sick --model sif --task entailment          # frozen SIF GloVe features
    paranmt sick --model glove --task relatedness       # frozen GloVe-average features

**Model** (Tai, Socher & Manning 2015, as used in Wieting et al. 2016 §4.4 "Towards universal paraphrastic
sentence embeddings" and the CSE paper §4.2): for sentence embeddings ``hL``, ``hR``

    h× = hL ⊙ hR,   h+ = |hL − hR|,   hs = σ(W× h× + W+ h+ + b),   p̂ = softmax(Wp hs + bp)

* *relatedness*: ``p̂`` over the classes ``r = 1..5``; the gold score ``y ∈ [1, 5]`` becomes the sparse target
  ``p`` with ``p_⌊y⌋ = ⌊y⌋ − y + 1`` and ``p_⌊y⌋+1 = y − ⌊y⌋`` (all mass on ``y`` when it is an integer); the loss
  is ``KL(p ‖ p̂)``; the prediction is ``ŷ = Σ_r r p̂_r``. Reported on dev: Pearson's r, Spearman's ρ, MSE.
* *entailment*: ``p̂`` over ``CONTRADICTION, ENTAILMENT, NEUTRAL``; negative log-likelihood; accuracy.

**Two modes.** *Frozen* (default): the sentences are embedded once with any model that
:func:`train_embeddings.models.model_io.load_model` loads (neural, SIF, word average) — or ``glove`` / ``sif`` built on
the fly (GloVe 6B 50d; SIF with ``enwiki_vocab_min200.txt`` counts and the principal component of the SICK
*training* sentences, no labels used) — and only the head is trained. *Fine-tuning* (``--finetune``, neural
models): the encoder is trained with the head, regularised back to the universal (initial) parameters:
``loss += λ_w Σ ‖θ − θ₀‖²`` over all encoder parameters (the paper's "regularising to our universal
parameters", Table 5 last column). The head has an L2 penalty ``λ_c ‖θ_head‖²`` (weights and biases).

**Training.** Adam (head 5e-3, encoder 1e-3), mini-batches of 25 pairs (the paper tunes 25/50/100), hidden size
50 (Tai et al.), at most ``epochs`` (30) epochs; after each epoch the dev metric (Pearson / accuracy) is
computed and the best epoch's parameters are kept; training stops after ``patience`` (5) epochs without
improvement. Reported dev figures are
those of the selected epoch (SICK's test set is not shipped here, so they are selection-biased: compare modes
with that in mind). Deterministic for a seed on CPU.

**Data** (the folder :func:`paranmt.core.data_dirs.sick_dir` names, ``$PARANMT_SICK_DIR``, by default ``sick/`` in
the data folder): ``sicktrain.tsv`` / ``sickdev.tsv`` (relatedness)
and ``sicktrain-ent.tsv`` / ``sickdev-ent.tsv`` (entailment), ``sentence1<TAB>sentence2<TAB>label`` with no
header (a header line whose label is not a value is skipped); sentences are stripped of surrounding spaces.
Anything else raises :class:`SickFormatError` naming the file and line.

**Output** (``--out DIR``): ``metrics.json`` (configuration, per-epoch train loss and dev metrics, best epoch,
best dev metrics), ``head.pt`` (the head's ``state_dict``), and with ``--finetune`` the fine-tuned encoder as a
model directory ``model/`` (:func:`train_embeddings.models.model_io.save_model`).
"""

from __future__ import annotations

import copy
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from tqdm import tqdm

from paranmt.core.correlation import pearson, spearman
from paranmt.core.data_dirs import SICK_DIR_VARIABLE, sick_dir, word_counts_file
from paranmt.core.errors import ParanmtError
from train_embeddings.evaluation.sick_config import TASKS, SickConfig, Task
from train_embeddings.evaluation.sts.datasets import read_utf8_lines
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_io import load_model
from train_embeddings.models.sif import SifModel, build_sif, glove_average

__all__ = ["ENTAILMENT_LABELS", "PairHead", "SickData", "SickFormatError", "SickResult",
           "evaluate_predictions", "load_encoder", "load_sick", "pair_features",
           "predicted_scores", "regulariser", "relatedness_target", "sick_files", "task_loss", "train_sick"]

log = logging.getLogger(__name__)

ENTAILMENT_LABELS: tuple[str, ...] = ("CONTRADICTION", "ENTAILMENT", "NEUTRAL")
N_CLASSES = 5  # relatedness classes 1..5
FILES: dict[str, tuple[str, str]] = {"relatedness": ("sicktrain.tsv", "sickdev.tsv"),
                                     "entailment": ("sicktrain-ent.tsv", "sickdev-ent.tsv")}


class SickFormatError(ParanmtError, ValueError):
    """A SICK file cannot be read; the message names the file and the line."""


def sick_files(task: Task, root: str | Path | None = None) -> tuple[Path, Path]:
    """(train, dev) files of ``task`` under ``root`` (default :func:`~paranmt.core.data_dirs.sick_dir`)."""
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}")
    base = Path(root) if root is not None else sick_dir()
    train, dev = FILES[task]
    return base / train, base / dev


# ---------------------------------------------------------------------------------------------------- data


@dataclass(frozen=True, eq=False)
class SickData:
    """Sentence pairs with their gold values: ``scores`` (float64 in [1, 5]) for relatedness, ``labels`` (int64
    indices into :data:`ENTAILMENT_LABELS`) for entailment."""

    task: Task
    sentences1: tuple[str, ...]
    sentences2: tuple[str, ...]
    targets: np.ndarray
    source: str = ""

    def __len__(self) -> int:
        return len(self.sentences1)

    def __repr__(self) -> str:
        return f"SickData({self.task}, {len(self)} pairs, {self.source!r})"

    def head(self, n: int) -> SickData:
        """The first ``n`` pairs (for smoke runs)."""
        return SickData(self.task, self.sentences1[:n], self.sentences2[:n], self.targets[:n], self.source)

    def unique_sentences(self) -> list[str]:
        """Distinct sentences of both sides, in order of first appearance."""
        return list(dict.fromkeys(self.sentences1 + self.sentences2))


def _parse_target(text: str, task: Task, path: Path, lineno: int) -> float | int:
    value = text.strip()
    if task == "relatedness":
        try:
            score = float(value)
        except ValueError:
            score = math.nan
        if not (1.0 <= score <= 5.0):
            raise SickFormatError(f"{path}:{lineno}: expected a relatedness score in [1, 5], got {text[:40]!r}")
        return score
    label = value.upper()
    if label not in ENTAILMENT_LABELS:
        raise SickFormatError(f"{path}:{lineno}: expected one of {', '.join(ENTAILMENT_LABELS)}, got {text[:40]!r}")
    return ENTAILMENT_LABELS.index(label)


def load_sick(path: str | Path, task: Task) -> SickData:
    """Read one SICK file (see the module docstring for the format). Errors name the file and line."""
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}")
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"SICK file {path} not found (the SICK folder: --sick-dir, else {SICK_DIR_VARIABLE})")
    left: list[str] = []
    right: list[str] = []
    targets: list[float | int] = []
    for lineno, line in enumerate(read_utf8_lines(path, SickFormatError), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            raise SickFormatError(f"{path}:{lineno}: expected 'sentence1<TAB>sentence2<TAB>label', found "
                                  f"{len(fields)} tab-separated fields in {line[:80]!r}")
        first, second, gold = (f.strip() for f in fields)
        if not left and lineno == 1 and gold.lower() in {"score", "label", "relatedness_score",
                                                         "entailment_judgment", "relatedness", "entailment"}:
            continue  # a header line
        if not first or not second:
            raise SickFormatError(f"{path}:{lineno}: {'sentence1' if not first else 'sentence2'} is empty")
        targets.append(_parse_target(gold, task, path, lineno))
        left.append(first)
        right.append(second)
    if not targets:
        raise SickFormatError(f"{path}: no sentence pairs")
    dtype = np.float64 if task == "relatedness" else np.int64
    return SickData(task, tuple(left), tuple(right), np.asarray(targets, dtype=dtype), str(path))


# ---------------------------------------------------------------------------------------------------- model


def relatedness_target(scores: np.ndarray | torch.Tensor, n_classes: int = N_CLASSES) -> torch.Tensor:
    """Tai et al.'s sparse target distribution (``n x n_classes`` float32, classes ``1..n_classes``):
    ``p_⌊y⌋ = ⌊y⌋ − y + 1``, ``p_⌊y⌋+1 = y − ⌊y⌋`` (an integer ``y`` puts all its mass on class ``y``)."""
    y = torch.as_tensor(np.asarray(scores, dtype=np.float64) if not torch.is_tensor(scores) else scores,
                        dtype=torch.float64).reshape(-1)
    if ((y < 1) | (y > n_classes)).any():
        raise ValueError(f"relatedness scores must lie in [1, {n_classes}]")
    low = torch.floor(y).clamp(max=n_classes - 1)  # y = K: all mass on class K through the upper slot
    frac = y - low
    target = torch.zeros(len(y), n_classes, dtype=torch.float64)
    rows = torch.arange(len(y))
    target[rows, (low - 1).long()] = 1 - frac
    target[rows, low.long()] = frac
    return target.float()


def pair_features(left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
    """``[hL ⊙ hR, |hL − hR|]`` (``n x 2d``): h× and h+ of Tai et al."""
    if left.shape != right.shape:
        raise ValueError(f"left embeddings {tuple(left.shape)} vs right {tuple(right.shape)}")
    return torch.cat([left * right, (left - right).abs()], dim=1)


class PairHead(nn.Module):
    """``log softmax(Wp σ(W× h× + W+ h+ + b) + bp)``: ``W×`` and ``W+`` are the two halves of ``hidden.weight``."""

    def __init__(self, dim: int, hidden: int, n_classes: int) -> None:
        super().__init__()
        self.hidden = nn.Linear(2 * dim, hidden)
        self.output = nn.Linear(hidden, n_classes)

    def forward(self, left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
        return F.log_softmax(self.output(torch.sigmoid(self.hidden(pair_features(left, right)))), dim=1)


def predicted_scores(log_probs: torch.Tensor) -> torch.Tensor:
    """``ŷ = Σ_r r p̂_r`` with ``r = 1..K``."""
    classes = torch.arange(1, log_probs.shape[1] + 1, dtype=log_probs.dtype, device=log_probs.device)
    return log_probs.exp() @ classes


def task_loss(task: Task, log_probs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean over the batch: ``KL(p ‖ p̂)`` against :func:`relatedness_target` distributions (relatedness), or the
    negative log-likelihood of the label indices (entailment)."""
    if task == "relatedness":
        return F.kl_div(log_probs, targets, reduction="batchmean")  # Σ p (log p − log p̂), 0 log 0 = 0
    return F.nll_loss(log_probs, targets)


def regulariser(module: nn.Module, initial: dict[str, torch.Tensor] | None, lam: float) -> torch.Tensor:
    """``λ Σ ‖θ − θ₀‖²`` over the trainable parameters of ``module`` (``θ₀ = 0`` when ``initial`` is None: plain
    L2)."""
    terms = [(parameter if initial is None else parameter - initial[name]).pow(2).sum()
             for name, parameter in module.named_parameters() if parameter.requires_grad]
    if lam == 0 or not terms:
        return torch.zeros((), dtype=torch.float32)
    return lam * torch.stack(terms).sum()


def evaluate_predictions(task: Task, log_probs: np.ndarray | torch.Tensor, targets: np.ndarray) -> dict[str, float]:
    """Relatedness: ``pearson``, ``spearman``, ``mse`` of ``ŷ``; entailment: ``accuracy``."""
    log_probs = torch.as_tensor(log_probs, dtype=torch.float64)
    if task == "relatedness":
        predicted = predicted_scores(log_probs).numpy()
        gold = np.asarray(targets, dtype=np.float64)
        return {"pearson": pearson(predicted, gold), "spearman": spearman(predicted, gold),
                "mse": float(np.mean((predicted - gold) ** 2))}
    return {"accuracy": float((log_probs.argmax(1).numpy() == np.asarray(targets)).mean())}


# ---------------------------------------------------------------------------------------------------- training


@dataclass
class SickResult:
    """What :func:`train_sick` returns (and writes to ``metrics.json``)."""

    task: str
    model: str
    mode: str
    config: dict[str, Any]
    n_train: int
    n_dev: int
    best_epoch: int
    best: dict[str, float]
    epochs: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    head: PairHead | None = None
    encoder: EmbeddingModel | None = None  # the fine-tuned model (fine-tuning only)

    def to_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k not in ("head", "encoder")}

        def clean(value: object) -> object:  # JSON-ready: NaN and infinities become None
            if isinstance(value, float) and not math.isfinite(value):
                return None
            if isinstance(value, dict):
                return {k: clean(v) for k, v in value.items()}
            if isinstance(value, list):
                return [clean(v) for v in value]
            return value

        return clean(data)


Encode = Callable[[list[str]], np.ndarray]


class SentenceEmbedder(Protocol):
    """What frozen features need of a model: ``encode(sentences) -> (n, dim)`` (every model ``load_model`` loads)."""

    def encode(self, sentences: list[str]) -> np.ndarray: ...


#: A model to train a head on: a :class:`SentenceEmbedder` or a bare encode function (frozen features), or an
#: :class:`EmbeddingModel` (which fine-tuning needs).
SickModel = SentenceEmbedder | Encode


class _FrozenFeatures:
    """Embeddings of every distinct sentence, computed once; pairs index into them."""

    def __init__(self, encode: Encode, data: SickData, batch: int) -> None:
        sentences = data.unique_sentences()
        position = {s: i for i, s in enumerate(sentences)}
        chunks = [np.asarray(encode(sentences[i:i + batch]), dtype=np.float32) for i in range(0, len(sentences), batch)]
        matrix = np.concatenate(chunks)
        if matrix.ndim != 2 or len(matrix) != len(sentences):
            raise ValueError(f"the encoder returned shape {matrix.shape} for {len(sentences)} sentences")
        if not np.isfinite(matrix).all():
            raise ValueError("the encoder returned non-finite embeddings")
        self.matrix = torch.from_numpy(matrix)
        self.left = torch.tensor([position[s] for s in data.sentences1])
        self.right = torch.tensor([position[s] for s in data.sentences2])

    def pairs(self, index: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.matrix[self.left[index]], self.matrix[self.right[index]]


class _TrainableFeatures:
    """Sentences featurised once for an :class:`EmbeddingModel`; each mini-batch re-encodes its distinct
    sentences with gradients."""

    def __init__(self, model: EmbeddingModel, data: SickData) -> None:
        sentences = data.unique_sentences()
        position = {s: i for i, s in enumerate(sentences)}
        self.model = model
        self.batch = model.features(sentences)
        self.left = torch.tensor([position[s] for s in data.sentences1])
        self.right = torch.tensor([position[s] for s in data.sentences2])

    def pairs(self, index: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        ids = torch.cat([self.left[index], self.right[index]])
        unique, inverse = torch.unique(ids, return_inverse=True)
        vectors = self.model.encoder(self.batch.select(unique).to(self.model.device))
        both = vectors[inverse]
        return both[:len(index)], both[len(index):]


_Features = _FrozenFeatures | _TrainableFeatures


def _targets(task: Task, data: SickData) -> torch.Tensor:
    if task == "relatedness":
        return relatedness_target(data.targets)
    return torch.from_numpy(data.targets.astype(np.int64))


def _sick_features(model: SickModel, train: SickData, dev: SickData, config: SickConfig, finetune: bool
                   ) -> tuple[EmbeddingModel | None, dict[str, torch.Tensor] | None, _Features, _FrozenFeatures | None,
                              int]:
    """(the fine-tuned copy of ``model`` or None, its initial parameters, train features, dev features or None,
    embedding dimension): frozen embeddings computed once, or sentences featurised for a fine-tuned encoder."""
    if not finetune:
        encode = model.encode if hasattr(model, "encode") else model
        train_features = _FrozenFeatures(encode, train, config.encode_batch)
        dev_features = _FrozenFeatures(encode, dev, config.encode_batch)
        return None, None, train_features, dev_features, int(train_features.matrix.shape[1])
    if not hasattr(model, "encoder") or not isinstance(model.encoder, nn.Module):
        raise ValueError(f"fine-tuning needs a neural model (train_embeddings EmbeddingModel); got {model!r}. "
                         "Use frozen features (no --finetune) for SIF / word-average models.")
    encoder_model = type(model)(model.spec, copy.deepcopy(model.encoder), model.words, model.trigrams)
    initial = {k: v.detach().clone() for k, v in encoder_model.encoder.named_parameters()}
    return encoder_model, initial, _TrainableFeatures(encoder_model, train), None, int(encoder_model.dim)


def _dev_log_probs(head: PairHead, dev: SickData, dev_features: _FrozenFeatures | None,
                   encoder_model: EmbeddingModel | None, encode_batch: int, device: torch.device) -> torch.Tensor:
    """The head's log-probabilities for every dev pair (eval mode, no gradients)."""
    head.eval()
    with torch.no_grad():
        if encoder_model is None:
            left, right = dev_features.pairs(torch.arange(len(dev)))
        else:
            left = torch.from_numpy(encoder_model.encode(list(dev.sentences1), encode_batch)).to(device)
            right = torch.from_numpy(encoder_model.encode(list(dev.sentences2), encode_batch)).to(device)
        out = head(left, right)
    head.train()
    return out.cpu()


def _sick_epoch(task: Task, head: PairHead, features: _Features, targets: torch.Tensor, order: torch.Tensor,
                optimiser: torch.optim.Optimizer, config: SickConfig, encoder_model: EmbeddingModel | None,
                initial: dict[str, torch.Tensor] | None, bar: tqdm | None, epoch: int) -> float:
    """One pass over the training pairs in ``order``; returns the mean task loss (regularisers excluded)."""
    total, seen = 0.0, 0
    for start in range(0, len(order), config.batch_size):
        index = order[start:start + config.batch_size]
        left, right = features.pairs(index)
        loss = task_loss(task, head(left, right), targets[index.to(targets.device)])
        objective = loss + regulariser(head, None, config.lambda_c)
        if encoder_model is not None:
            objective = objective + regulariser(encoder_model.encoder, initial, config.lambda_w)
        optimiser.zero_grad(set_to_none=True)
        objective.backward()
        optimiser.step()
        total += loss.item() * len(index)
        seen += len(index)
        if bar is not None:
            bar.update(1)
            bar.set_postfix(epoch=epoch, loss=f"{total / seen:.4f}", refresh=False)
    return total / seen


def train_sick(model: SickModel, train: SickData, dev: SickData, config: SickConfig | None = None, *,
               finetune: bool = False, label: str = "", progress: bool = True) -> SickResult:
    """Train a SICK head on ``model``'s embeddings; return the selected (best dev epoch) head and metrics.

    ``model``: anything with ``encode(list_of_sentences) -> n x d`` (frozen mode), or an
    :class:`~train_embeddings.models.embedding_model.EmbeddingModel` for ``finetune=True`` (a deep copy is trained;
    ``model`` is not modified). ``train`` / ``dev``: :class:`SickData` of the same task.
    """
    config = config or SickConfig()
    config.validate()
    if train.task != dev.task:
        raise ValueError(f"train is {train.task} data but dev is {dev.task}")
    task = train.task
    if config.threads:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    started = time.perf_counter()
    encoder_model, initial, train_features, dev_features, dim = _sick_features(model, train, dev, config, finetune)
    n_classes = N_CLASSES if task == "relatedness" else len(ENTAILMENT_LABELS)
    device = encoder_model.device if encoder_model is not None else torch.device("cpu")
    head = PairHead(dim, config.hidden, n_classes).to(device)
    groups: list[dict[str, Any]] = [{"params": list(head.parameters()), "lr": config.lr}]
    if encoder_model is not None:
        groups.append({"params": [p for p in encoder_model.encoder.parameters() if p.requires_grad],
                       "lr": config.encoder_lr})
    optimiser = torch.optim.Adam(groups)
    targets = _targets(task, train).to(device)
    metric = "pearson" if task == "relatedness" else "accuracy"
    history: list[dict[str, Any]] = []
    best_value, best_epoch, best_state, stale = -math.inf, 0, None, 0
    bar = tqdm(total=math.ceil(len(train) / config.batch_size) * config.epochs, unit="step", dynamic_ncols=True,
               desc=f"SICK {task}{' fine-tune' if finetune else ''}", leave=False) if progress else None
    try:
        for epoch in range(1, config.epochs + 1):
            if encoder_model is not None:
                encoder_model.encoder.train()
            order = torch.randperm(len(train), generator=generator)
            train_loss = _sick_epoch(task, head, train_features, targets, order, optimiser, config, encoder_model,
                                     initial, bar, epoch)
            log_probs = _dev_log_probs(head, dev, dev_features, encoder_model, config.encode_batch, device)
            scores = evaluate_predictions(task, log_probs, dev.targets)
            history.append({"epoch": epoch, "train_loss": train_loss, "dev": scores})
            log.info("epoch %d: train loss %.4f, dev %s", epoch, train_loss, scores)
            value = scores[metric]
            if value > best_value:
                best_value, best_epoch, stale = value, epoch, 0
                best_state = (copy.deepcopy(head.state_dict()),
                              copy.deepcopy(encoder_model.encoder.state_dict()) if encoder_model is not None else None)
            else:
                stale += 1
                if stale >= config.patience:
                    break
    finally:
        if bar is not None:
            bar.close()
    assert best_state is not None
    head.load_state_dict(best_state[0])
    head.eval()
    if encoder_model is not None:
        encoder_model.encoder.load_state_dict(best_state[1])
        encoder_model.encoder.eval()
    return SickResult(task=task, model=label or repr(model), mode="finetune" if finetune else "frozen",
                      config=asdict(config), n_train=len(train), n_dev=len(dev), best_epoch=best_epoch,
                      best=history[best_epoch - 1]["dev"], epochs=history, seconds=time.perf_counter() - started,
                      head=head, encoder=encoder_model)


# ----------------------------------------------------------------------------------------------------- encoders by name


def load_encoder(spec: str, fit_sentences: Sequence[str] | None = None,
                 word_counts: str | Path | None = None) -> EmbeddingModel | SifModel:
    """``glove`` (GloVe 6B 50d average), ``sif`` (SIF GloVe: ``word_counts`` — default the data folder's
    ``enwiki_vocab_min200.txt`` (:func:`~paranmt.core.data_dirs.word_counts_file`) when present — and the reference
    PC of ``fit_sentences``), or a model directory (:func:`train_embeddings.models.model_io.load_model`: neural, SIF
    or average)."""
    if spec == "glove":
        return glove_average("kumo", name="GloVe avg")
    if spec == "sif":
        if word_counts is None:
            default = word_counts_file()
            word_counts = default if default.is_file() else None
        if fit_sentences is None:
            raise ValueError("--model sif needs sentences to fit its principal component on")
        return build_sif("kumo", word_counts=word_counts, fit_sentences=list(fit_sentences), name="SIF GloVe")
    path = Path(spec)
    if not path.exists():
        raise FileNotFoundError(f"--model {spec}: not 'glove', 'sif' nor an existing model directory")
    return load_model(path)

