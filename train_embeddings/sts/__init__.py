"""STS evaluation of sentence encoders: SemEval STS 2012–2016, STS Benchmark and the "STS2017" dev set.

    from train_embeddings import sts
    report = sts.evaluate_all(model.encode)          # StsReport: .markdown(), .to_dict()
    r = sts.dev_score(model.encode)                  # Pearson's r on STS2017: the trainer's model selection

One concept per module, all re-exported here:

* :mod:`~train_embeddings.sts.benchmarks` — the data: file layout, loaders (:func:`load_sts_dataset`,
  :func:`load_sts_year`, :func:`load_stsb`, :func:`load_benchmarks`), the STS2017 dev set (:func:`sts2017_dev`,
  :func:`stsb_without_sts2017`), :class:`StsDataset`, :class:`StsYear`, :class:`StsBenchmarks`,
  :class:`StsFormatError`;
* :mod:`~train_embeddings.sts.results` — :class:`DatasetResult`, :class:`YearResult`, :class:`StsReport`, the
  protocols (``PROTOCOL``), JSON and Markdown (:func:`markdown_comparison`);
* :mod:`~train_embeddings.sts.evaluator` — the driver: the ``Encoder`` type, batched encoding, cosine similarities,
  :func:`evaluate_dataset`, :func:`evaluate_all`, :func:`dev_score`;
* :mod:`~train_embeddings.sts.baselines` — encoders needing no trained model: :func:`glove_average_encoder`,
  :func:`sif_encoder`, :class:`WordVectorEncoder`.

Correlations (Pearson, Spearman with average ranks) are :mod:`core.correlation`'s.
"""

from __future__ import annotations

from train_embeddings.sts.baselines import WordVectorEncoder, glove_average_encoder, sif_encoder
from train_embeddings.sts.benchmarks import (
    STS2017_FILE,
    STS_YEARS,
    STSB_SPLITS,
    StsBenchmarks,
    StsDataset,
    StsFormatError,
    StsYear,
    default_sts_root,
    load_benchmarks,
    load_sts_dataset,
    load_sts_year,
    load_stsb,
    read_lines,
    sts2017_dev,
    stsb_without_sts2017,
    year_directory,
)
from train_embeddings.sts.evaluator import (
    DEFAULT_BATCH_SIZE,
    Encoder,
    cosine_similarity,
    dev_score,
    encode_sentences,
    evaluate_all,
    evaluate_dataset,
    pair_similarities,
)
from train_embeddings.sts.results import (
    CAPTION_SETS,
    PROTOCOL,
    DatasetResult,
    StsReport,
    YearResult,
    markdown_comparison,
)

__all__ = [
    "CAPTION_SETS",
    "DEFAULT_BATCH_SIZE",
    "PROTOCOL",
    "STS2017_FILE",
    "STSB_SPLITS",
    "STS_YEARS",
    "DatasetResult",
    "Encoder",
    "StsBenchmarks",
    "StsDataset",
    "StsFormatError",
    "StsReport",
    "StsYear",
    "WordVectorEncoder",
    "YearResult",
    "cosine_similarity",
    "default_sts_root",
    "dev_score",
    "encode_sentences",
    "evaluate_all",
    "evaluate_dataset",
    "glove_average_encoder",
    "load_benchmarks",
    "load_sts_dataset",
    "load_sts_year",
    "load_stsb",
    "markdown_comparison",
    "pair_similarities",
    "read_lines",
    "sif_encoder",
    "sts2017_dev",
    "stsb_without_sts2017",
    "year_directory",
]
