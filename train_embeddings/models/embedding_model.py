"""The user-facing model: a trained (or training) encoder with its vocabularies and tokeniser, raw sentences in,
vectors out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import torch

from paranmt.core.text import CachedTokenizer
from paranmt.core.token_arrays import TokenLists, as_token_lists
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.models.pairing import paired_cosine, sentence_sides
from train_embeddings.models.spec import ModelSpec
from train_embeddings.static.pieces import StaticVocab
from train_embeddings.vocab import Featurizer, SentenceBatch, SentencePieceVocab, TrigramVocab, WordVocab

__all__ = ["EmbeddingModel"]


class EmbeddingModel:
    """A trained (or training) encoder with its vocabularies and tokeniser: raw sentences in, vectors out.

        model = load_model("runs/word/best")
        vectors = model.encode(["A man is playing a guitar.", "Someone plays guitar."])   # float32, n x dim
        model.similarity(["a man plays"], ["someone plays"])                              # cosine per pair
    """

    def __init__(self, spec: ModelSpec, encoder: SentenceEncoder, words: WordVocab | None,
                 trigrams: TrigramVocab | None, pieces: SentencePieceVocab | None = None,
                 static: StaticVocab | None = None) -> None:
        self.spec = spec
        self.encoder = encoder
        self.words = words
        self.trigrams = trigrams
        self.pieces = pieces
        self.static = static
        self.featurizer = Featurizer(words, trigrams, lowercase=bool(spec.tokenizer.get("lowercase", True)),
                                     pieces=pieces, static=static)
        self._tokenizer = CachedTokenizer(spec.tokenizer)

    def __repr__(self) -> str:
        joiner = "," if self.spec.combine == "concat" else "+"
        return (f"EmbeddingModel({joiner.join(self.spec.components)}, dim={self.dim}, "
                f"words={len(self.words) if self.words else 0}, "
                f"trigrams={len(self.trigrams) if self.trigrams else 0}"
                + (f", pieces={len(self.pieces)}" if self.pieces else "")
                + (f", static tokens={len(self.static)}" if self.static else "") + f", device={self.device})")

    @property
    def dim(self) -> int:
        return int(self.encoder.output_dim)

    @property
    def device(self) -> torch.device:
        return next(self.encoder.parameters()).device

    def to(self, device: torch.device | str) -> EmbeddingModel:
        self.encoder.to(device)
        return self

    def tokenize(self, sentences: Sequence[str]) -> list[list[str]]:
        """Raw text → Moses tokens with the saved tokeniser settings (punctuation normalisation, ``escape=False``;
        lower-casing happens at lookup)."""
        return self._tokenizer(sentences)

    def features(self, sentences: Sequence[str]) -> SentenceBatch:
        """Raw sentences featurised as this model reads them (Moses tokens and/or the raw text), on the CPU."""
        sentences = list(sentences)
        tokens = self.tokenize(sentences) if self.spec.uses_tokens else None
        return self.featurizer(tokens, pa.array(sentences, pa.string()) if self.static is not None else None)

    def encode_tokens(self, tokens: TokenLists | None, batch_size: int = 1000,
                      texts: Sequence[str] | None = None) -> np.ndarray:
        """Embeddings (float32 ``n x dim``) of Moses token lists (Python lists or an Arrow list<string> array);
        ``texts``: the same sentences raw, for a static component (without them it reads the tokens joined)."""
        arrays = as_token_lists(tokens) if tokens is not None else None
        raw = pa.array(list(texts), pa.string()) if texts is not None else None
        n = len(arrays) if arrays is not None else len(raw)  # type: ignore[arg-type]
        out = np.zeros((n, self.dim), np.float32)
        was_training = self.encoder.training
        self.encoder.eval()
        try:
            with torch.inference_mode():
                for start in range(0, n, batch_size):
                    chunk = arrays.slice(start, batch_size) if arrays is not None else None
                    batch = self.featurizer(chunk, raw.slice(start, batch_size) if raw is not None else None)
                    out[start:start + batch.n] = self.encoder(batch.to(self.device)).float().cpu().numpy()
        finally:
            self.encoder.train(was_training)
        return out

    def encode(self, sentences: Sequence[str], batch_size: int = 1000) -> np.ndarray:
        """Embeddings (float32 ``n x dim``) of raw sentences, tokenised as the model was trained (a static
        component reads the raw text with its teacher's tokenizer; a static-only model never runs Moses)."""
        if isinstance(sentences, str):
            raise TypeError("encode() takes a list of sentences, not one string")
        sentences = list(sentences)
        tokens = self.tokenize(sentences) if self.spec.uses_tokens else None
        return self.encode_tokens(tokens, batch_size=batch_size, texts=sentences if self.static else None)

    def __call__(self, sentences: Sequence[str]) -> np.ndarray:
        """``model(sentences)`` is ``model.encode(sentences)``: a model is an STS encoder as it stands."""
        return self.encode(sentences)

    def similarity(self, a: str | Sequence[str], b: str | Sequence[str], batch_size: int = 1000) -> np.ndarray:
        """Cosine similarity of ``a[i]`` and ``b[i]`` (float32, one per pair; 0 where a vector is zero). A single
        string is one sentence (``similarity("a", "b")`` has one value), compared with every sentence of the
        other side."""
        a, b = sentence_sides(a, b)
        return paired_cosine(self.encode(a, batch_size), self.encode(b, batch_size))
