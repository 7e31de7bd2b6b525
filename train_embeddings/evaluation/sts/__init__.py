"""STS evaluation of sentence encoders: SemEval STS 2012–2016, STS Benchmark and the "STS2017" dev set.

    from train_embeddings.evaluation import sts
    report = sts.evaluate_all(model.encode)          # StsReport: .markdown(), .to_dict()
    r = sts.dev_score(model.encode)                  # Pearson's r on STS2017: the trainer's model selection

One concept per module, all re-exported here:

* :mod:`~train_embeddings.evaluation.sts.datasets` — the data: file layout, loaders (:func:`load_sts_dataset`,
  :func:`load_sts_year`, :func:`load_stsb`, :func:`load_benchmarks`), the STS2017 dev set (:func:`sts2017_dev`,
  :func:`stsb_without_sts2017`), :class:`StsDataset`, :class:`StsYear`, :class:`StsBenchmarks`,
  :class:`StsFormatError`, the trainer's check for its dev files (:func:`check_dev_data`, :class:`StsDataMissing`);
* :mod:`~train_embeddings.evaluation.sts.results` — :class:`DatasetResult`, :class:`YearResult`, :class:`StsReport`, the
  protocols (``PROTOCOL``; MTEB's STS scores: :meth:`StsReport.mteb_scores`), JSON and Markdown
  (:func:`markdown_comparison`, :func:`markdown_protocols`: MTEB and papers' protocol in one table);
* :mod:`~train_embeddings.evaluation.sts.evaluator` — the driver: the ``Encoder`` type, batched encoding, cosine
  similarities, :func:`evaluate_dataset`, :func:`evaluate_all`, :func:`dev_score`;
* :mod:`~train_embeddings.evaluation.sts.baselines` — encoders needing no trained model: :func:`glove_average_encoder`,
  :func:`sif_encoder`, :class:`WordVectorEncoder`, all-MiniLM-L6-v2 (:func:`minilm_encoder`, the ``st`` extra),
  and :func:`sentences_per_second` (:func:`timed_pass`).

Correlations (Pearson, Spearman with average ranks) are :mod:`paranmt.core.correlation`'s.
"""

from __future__ import annotations

from train_embeddings.evaluation.sts.baselines import (
    MiniLMEncoder,
    WordVectorEncoder,
    glove_average_encoder,
    minilm_directory,
    minilm_encoder,
    sentences_per_second,
    sif_encoder,
    timed_pass,
)
from train_embeddings.evaluation.sts.datasets import (
    STS2017_FILE,
    STSB_SPLITS,
    StsBenchmarks,
    StsDataMissing,
    StsDataset,
    StsFormatError,
    StsYear,
    check_dev_data,
    load_benchmarks,
    load_sts_dataset,
    load_sts_year,
    load_stsb,
    read_utf8_lines,
    sts2017_dev,
    stsb_without_sts2017,
    year_directory,
)
from train_embeddings.evaluation.sts.evaluator import (
    Encoder,
    cosine_similarity,
    dev_score,
    encode_sentences,
    evaluate_all,
    evaluate_dataset,
    pair_similarities,
)
from train_embeddings.evaluation.sts.results import (
    CAPTION_SETS,
    MTEB_TASKS,
    PROTOCOL,
    DatasetResult,
    StsReport,
    YearResult,
    markdown_comparison,
    markdown_protocols,
)
from train_embeddings.evaluation.sts_defaults import DEFAULT_BATCH_SIZE, STS_YEARS

__all__ = [
    "CAPTION_SETS",
    "DEFAULT_BATCH_SIZE",
    "MTEB_TASKS",
    "PROTOCOL",
    "STS2017_FILE",
    "STSB_SPLITS",
    "STS_YEARS",
    "DatasetResult",
    "Encoder",
    "MiniLMEncoder",
    "StsBenchmarks",
    "StsDataMissing",
    "StsDataset",
    "StsFormatError",
    "StsReport",
    "StsYear",
    "WordVectorEncoder",
    "YearResult",
    "check_dev_data",
    "cosine_similarity",
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
    "markdown_protocols",
    "minilm_directory",
    "minilm_encoder",
    "pair_similarities",
    "read_utf8_lines",
    "sentences_per_second",
    "sif_encoder",
    "sts2017_dev",
    "stsb_without_sts2017",
    "timed_pass",
    "year_directory",
]
