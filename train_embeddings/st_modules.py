"""sentence-transformers modules that run paranmt models (imported only with the ``st`` extra installed).

An exported directory (:mod:`train_embeddings.export.st_export`) names these classes in its ``modules.json``;
``SentenceTransformer(path, trust_remote_code=True)`` imports them from the installed ``train_embeddings``
package (sentence-transformers 6 asks for ``trust_remote_code`` before importing any class outside its own
namespace, even from a local directory). Nothing is fetched: the code is the installed package's, so there is one
implementation of the tokeniser and of every encoder, and the exported vectors equal paranmt's ``encode``.

* :class:`MosesWordTokenizer` — a sentence-transformers ``WordTokenizer`` that reproduces this project's
  tokenisation exactly (``paranmt.core.text.CachedTokenizer``: Moses punctuation normalisation and tokenisation,
  ``escape=False``; lower-cased at lookup; unknown words → ``<unk>``, id 1, whose vector the model learnt). WORD
  models export as the library's own ``WordEmbeddings`` + ``Pooling(mean)`` over it.
* :class:`ParanmtEncoder` — any other model (TRIGRAM, SP, LSTM/BLSTM, combinations, …): the paranmt model directory
  inside the module folder, featurised and encoded by ``train_embeddings.models``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import torch

from paranmt.core.hf_imports import hide_broken_torchaudio
from paranmt.core.text import MOSES_EN, CachedTokenizer
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_dir import MODEL_JSON
from train_embeddings.models.model_io import load_embedding_model, save_model
from train_embeddings.vocab import Featurizer, SentenceBatch, WordVocab

hide_broken_torchaudio()  # before sentence_transformers imports transformers (see hf_imports)

from sentence_transformers.base.modules import InputModule  # noqa: E402
from sentence_transformers.sentence_transformer.modules.tokenizer import WordTokenizer  # noqa: E402

__all__ = ["MosesWordTokenizer", "ParanmtEncoder"]

TOKENIZER_CONFIG = "paranmt_tokenizer.json"
TOKENIZER_WORDS = "paranmt_words.json"
# The **kwargs (and *args) typed Any below are sentence-transformers' own, taken to match its module interface and
# not used here.
_BATCH_KEYS = ("word_ids", "word_offsets", "trigram_ids", "trigram_offsets", "sp_ids", "sp_offsets", "static_ids",
               "static_offsets")


class MosesWordTokenizer(WordTokenizer):
    """Raw sentence → word ids exactly as a paranmt WORD model featurises it (saved tokeniser settings, lower-cased
    lookup, ``<unk>`` for unknown words)."""

    def __init__(self, vocab: Iterable[str] = (), settings: dict[str, Any] | None = None,
                 lowercase: bool = True) -> None:
        self.settings = dict(settings if settings is not None else MOSES_EN)
        self.lowercase = lowercase
        self._tokenize = CachedTokenizer(self.settings)
        self.set_vocab(vocab)

    def set_vocab(self, vocab: Iterable[str]) -> None:
        self.vocab = list(vocab)
        self._featurizer = Featurizer(WordVocab(self.vocab), None, self.lowercase) if self.vocab else None

    def get_vocab(self) -> list[str]:
        return self.vocab

    def tokenize(self, text: str, **kwargs: Any) -> list[int]:
        if self._featurizer is None:
            raise ValueError("MosesWordTokenizer has no vocabulary: set_vocab() first")
        batch = self._featurizer(self._tokenize([text]))
        assert batch.word_ids is not None
        return batch.word_ids.tolist()

    def save(self, output_path: str) -> None:
        Path(output_path, TOKENIZER_WORDS).write_text(json.dumps(self.vocab, ensure_ascii=False), encoding="utf-8")
        Path(output_path, TOKENIZER_CONFIG).write_text(
            json.dumps({"settings": self.settings, "lowercase": self.lowercase}, indent=2) + "\n", encoding="utf-8")

    @staticmethod
    def load(input_path: str) -> MosesWordTokenizer:
        config = json.loads(Path(input_path, TOKENIZER_CONFIG).read_text(encoding="utf-8"))
        vocab = json.loads(Path(input_path, TOKENIZER_WORDS).read_text(encoding="utf-8"))
        return MosesWordTokenizer(vocab, config["settings"], config["lowercase"])


class ParanmtEncoder(InputModule):
    """A whole paranmt :class:`~train_embeddings.models.embedding_model.EmbeddingModel` as the one module of a
    SentenceTransformer: ``preprocess`` tokenises and featurises (flat ids + offsets), ``forward`` runs the
    encoder and sets ``sentence_embedding``. Saved as a paranmt model directory (``model.json``, weights)."""

    config_keys: list[str] = []  # noqa: RUF012 (sentence-transformers' class attribute)
    modalities: list[str] = ["text"]  # noqa: RUF012
    save_in_root = False

    def __init__(self, model: EmbeddingModel) -> None:
        torch.nn.Module.__init__(self)
        self.paranmt = model
        self.encoder = model.encoder  # registered, so .to(device) and parameters() see the weights

    def preprocess(self, inputs: list[str], prompt: str | None = None, **kwargs: Any) -> dict[str, torch.Tensor]:
        if prompt:
            inputs = [prompt + text for text in inputs]
        batch = self.paranmt.features(inputs)
        features = {key: getattr(batch, key) for key in _BATCH_KEYS if getattr(batch, key) is not None}
        features["n"] = torch.tensor([batch.n])
        return features

    def forward(self, features: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        batch = SentenceBatch(int(features["n"][0]), *(features.get(key) for key in _BATCH_KEYS))
        features["sentence_embedding"] = self.encoder(batch).float()
        return features

    def get_embedding_dimension(self) -> int:
        return self.paranmt.dim

    def get_config_dict(self) -> dict[str, Any]:
        return {}

    def save(self, output_path: str, *args: Any, **kwargs: Any) -> None:
        self.paranmt.encoder.cpu()
        save_model(self.paranmt, output_path)

    @classmethod
    def load(cls, model_name_or_path: str, subfolder: str = "", token: bool | str | None = None,
             cache_folder: str | None = None, revision: str | None = None, local_files_only: bool = False,
             **kwargs: Any) -> ParanmtEncoder:
        directory = Path(model_name_or_path, subfolder) if subfolder else Path(model_name_or_path)
        if not (directory / MODEL_JSON).is_file():
            raise FileNotFoundError(f"{directory}: no {MODEL_JSON} (not a module written by paranmt export)")
        meta = json.loads((directory / MODEL_JSON).read_text(encoding="utf-8"))
        return cls(load_embedding_model(directory, meta))

