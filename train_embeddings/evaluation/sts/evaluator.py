"""STS evaluation driver: encode each dataset's sentences, score pairs by cosine, correlate with the gold scores.

    from train_embeddings.evaluation.sts.evaluator import evaluate_all, dev_score
    report = evaluate_all(model.encode)              # StsReport: .markdown(), .to_dict()
    r = dev_score(model.encode)                      # Pearson's r on STS2017: the trainer's model selection

An *encoder* is any callable ``encode(list_of_raw_sentences) -> np.ndarray`` of shape ``(n, dim)``: sentences go in
exactly as the data files give them (stripped of surrounding whitespace); the encoder tokenises them itself. The
similarity of a pair is the cosine of its two vectors (0.0 where either vector is zero).

the cosines are computed in one vectorised pass. Correlations are computed with NumPy (Spearman with average
ranks for ties, as ``scipy.stats.spearmanr``); a correlation that is undefined (fewer than two pairs, or constant
similarities or scores) is NaN, and NaN is written as ``null`` in JSON.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from paranmt.core.correlation import pearson, spearman
from paranmt.core.data_dirs import sts_dir
from train_embeddings.evaluation.sts.datasets import (
    StsBenchmarks,
    StsDataset,
    cached_sts2017_dev,
    is_sts2017,
    load_benchmarks,
)
from train_embeddings.evaluation.sts.results import DatasetResult, StsReport, YearResult
from train_embeddings.evaluation.sts_defaults import DEFAULT_BATCH_SIZE, STS_YEARS

if TYPE_CHECKING:  # an encoder may return a tensor; the evaluator itself runs without torch
    import torch

__all__ = ["Encoder", "cosine_similarity", "dataset_result", "dev_score", "encode_sentences",
           "evaluate_all", "evaluate_dataset", "pair_similarities"]

Encoder = Callable[[list[str]], np.ndarray]
"""Raw sentences in, one row per sentence out."""


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two ``(n, dim)`` matrices (float64); 0.0 where either row is zero."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"cosine of shapes {a.shape} and {b.shape}: expected two equal (n, dim) matrices")
    dots = np.einsum("nd,nd->n", a, b)
    norms = np.sqrt(np.einsum("nd,nd->n", a, a) * np.einsum("nd,nd->n", b, b))
    out = np.zeros(len(a), np.float64)
    np.divide(dots, norms, out=out, where=norms > 0)
    return np.clip(out, -1.0, 1.0)


# ---------------------------------------------------------------------------------------------------- encoding


def _as_matrix(output: npt.ArrayLike | torch.Tensor, n: int) -> np.ndarray:
    if hasattr(output, "detach"):  # a torch tensor, possibly on a GPU
        output = output.detach().cpu().numpy()
    matrix = np.asarray(output)
    if matrix.ndim != 2 or matrix.shape[0] != n:
        raise ValueError(f"the encoder returned shape {matrix.shape} for {n} sentences; expected ({n}, dim)")
    if not np.issubdtype(matrix.dtype, np.number):
        raise ValueError(f"the encoder returned a {matrix.dtype} array; expected numbers")
    if not np.isfinite(matrix).all():
        raise ValueError("the encoder returned non-finite values")
    return matrix


def encode_sentences(encode: Encoder, sentences: Sequence[str], *, batch_size: int = DEFAULT_BATCH_SIZE) -> np.ndarray:
    """``encode`` over ``sentences`` in chunks of ``batch_size``, stacked into one ``(n, dim)`` matrix."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, got {batch_size}")
    sentences = list(sentences)
    blocks = []
    for start in range(0, len(sentences), batch_size):
        chunk = sentences[start:start + batch_size]
        blocks.append(_as_matrix(encode(chunk), len(chunk)))
    if not blocks:
        return np.zeros((0, 0), np.float32)
    if len({block.shape[1] for block in blocks}) > 1:
        raise ValueError(f"the encoder returned different dimensions: {sorted({b.shape[1] for b in blocks})}")
    return np.concatenate(blocks)


def pair_similarities(encode: Encoder, dataset: StsDataset, *, batch_size: int = DEFAULT_BATCH_SIZE) -> np.ndarray:
    """Cosine similarity of every pair of ``dataset``; its distinct sentences are encoded once."""
    if len(dataset) == 0:
        return np.zeros(0, np.float64)
    unique = dataset.unique_sentences()
    vectors = encode_sentences(encode, unique, batch_size=batch_size)
    position = {sentence: i for i, sentence in enumerate(unique)}
    first = np.fromiter((position[s] for s in dataset.sentences1), np.int64, len(dataset))
    second = np.fromiter((position[s] for s in dataset.sentences2), np.int64, len(dataset))
    return cosine_similarity(vectors[first], vectors[second])


def dataset_result(dataset: StsDataset, similarities: np.ndarray) -> DatasetResult:
    """Pearson and Spearman between ``similarities`` (one per pair) and the gold scores of ``dataset``."""
    return DatasetResult(dataset.name, dataset.year, len(dataset), pearson(similarities, dataset.scores),
                         spearman(similarities, dataset.scores), dataset.unscored)


def evaluate_dataset(encode: Encoder, dataset: StsDataset, *, batch_size: int = DEFAULT_BATCH_SIZE) -> DatasetResult:
    """Pearson and Spearman between ``encode``'s cosine similarities and the gold scores of ``dataset``."""
    return dataset_result(dataset, pair_similarities(encode, dataset, batch_size=batch_size))


def evaluate_all(encode: Encoder, years: Iterable[int] = STS_YEARS, stsb: bool = True, *,
                 root: str | Path | None = None, data: StsBenchmarks | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, label: str = "",
                 year_dirs: Mapping[int, str | Path] | None = None) -> StsReport:
    """Evaluate ``encode`` on the STS ``years`` present under ``root`` (or in ``year_dirs``, e.g. SemEval's 2016
    release) and (with ``stsb``) on STS2017, STS-B dev, STS-B test and STS-B test without STS2017. ``data``:
    already loaded benchmarks (then ``years``, ``stsb``, ``root`` and ``year_dirs`` are not used)."""
    start = time.perf_counter()
    if data is None:
        data = load_benchmarks(root, years, stsb, year_dirs=year_dirs)
    year_results = []
    for sts_year in data.years:
        results: list[DatasetResult] = []
        similarities: list[np.ndarray] = []
        for dataset in sts_year.values():
            sims = pair_similarities(encode, dataset, batch_size=batch_size)
            similarities.append(sims)
            results.append(dataset_result(dataset, sims))
        pooled = np.concatenate(similarities) if similarities else np.zeros(0)
        gold = np.concatenate([d.scores for d in sts_year.values()]) if sts_year else np.zeros(0)
        year_results.append(YearResult(int(sts_year.year or 0), tuple(results), spearman(pooled, gold),
                                       pearson(pooled, gold), sts_year.missing_input))
    stsb_results: dict[str, DatasetResult] = {}
    if data.stsb:
        test_sims = pair_similarities(encode, data.stsb["stsb_test"], batch_size=batch_size)
        for key, dataset in data.stsb.items():
            if key == "stsb_test":
                sims = test_sims
            elif key == "stsb_test_no_sts2017":  # the same pairs minus track5: no second encoding
                sims = test_sims[~is_sts2017(data.stsb["stsb_test"])]
            else:
                sims = pair_similarities(encode, dataset, batch_size=batch_size)
            stsb_results[key] = dataset_result(dataset, sims)
    return StsReport(tuple(year_results), stsb_results, data.missing_years, label, time.perf_counter() - start)


def dev_score(encode: Encoder, *, root: str | Path | None = None, dataset: StsDataset | None = None,
              batch_size: int = DEFAULT_BATCH_SIZE) -> float:
    """Pearson's r (raw, in [-1, 1]) of ``encode`` on STS2017 (:func:`sts2017_dev`, loaded once and cached):
    the model-selection score. Reads only the 250 ``track5.en-en`` pairs — no STS 2012–2016 or other STS-B
    pair. NaN if the similarities are constant."""
    if dataset is None:
        dataset = cached_sts2017_dev(str(Path(root if root is not None else sts_dir()).resolve()))
    return evaluate_dataset(encode, dataset, batch_size=batch_size).pearson
