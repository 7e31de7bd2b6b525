"""Saved models: self-contained directories that load on CPU, and word-vector exports of WORD models.

    from train_embeddings.models.model_io import export_word_vectors, load_model
    model = load_model("runs/word")               # a model directory, or a training run (its best/ else model/)
    model.encode(["A man is playing a guitar."])  # float32 n x dim, tokenised with the saved settings
    export_word_vectors(model, "vectors.txt")     # paragram/GloVe text: word v1 ... vn
    export_word_vectors(model, "vectors/", format="word_model")   # word_vectors.npy + vocab.txt
    # command line: paranmt export-vectors --model RUN --out vectors.txt [--format word_model]

A model directory holds:

* ``model.json`` — format version, the :class:`~train_embeddings.models.spec.ModelSpec` (components, sizes, tokeniser
  settings: Moses ``en``, punctuation normalisation, ``escape=False``, lower-casing), torch version;
* ``words.json`` / ``trigrams.json`` / ``sp.model`` / ``static_tokenizer.json`` — the vocabularies (when the model
  uses them; ``sp.model`` is the SentencePiece model of an ``sp`` component, ``static_tokenizer.json`` the teacher's
  fast tokenizer of a ``static`` one);
* ``weights.pt`` — the encoder's ``state_dict``, plain tensors, loaded with ``torch.load(weights_only=True)``;
* WORD models only: ``word_vectors.npy`` + ``vocab.txt`` — the word table without ``<pad>``, the layout
  ``paranmt.core.word_vectors.load_word_model`` reads: a saved WORD model directory *is* word vectors for the
  PARAGRAM-PHRASE scorer (``filters.scores --embeddings DIR`` / ``score.embeddings``). These files are the only
  copy of the table (``weights.pt`` then holds the rest, if anything).

Files are written to a temporary sibling directory and moved into place, so a reader never sees half a model.

:func:`load_model` reads any saved model: the ``"model_type"`` of its ``model.json`` (none for the directories
above; ``"sif"`` for :mod:`train_embeddings.models.sif` models) picks the loader in :data:`MODEL_LOADERS`.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch

from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import SentenceEncoder
from train_embeddings.models.model_dir import MODEL_JSON, ModelLoadError, model_directory, staged_directory
from train_embeddings.models.sif import MODEL_TYPE as SIF_MODEL_TYPE
from train_embeddings.models.sif import SifModel, load_sif
from train_embeddings.models.spec import ModelSpec
from train_embeddings.models.word_average import WordAverage
from train_embeddings.static.pieces import StaticVocab
from train_embeddings.vocab import PAD, SentencePieceVocab, TrigramVocab, WordVocab

__all__ = ["EMBEDDING_MODEL_TYPE", "MODEL_FORMAT", "MODEL_LOADERS", "ModelLoadError", "export_word_vectors",
           "load_embedding_model", "load_model", "save_model"]

MODEL_FORMAT = 1
EMBEDDING_MODEL_TYPE = "embedding"  # the type of a model.json without "model_type" (save_model writes none)
WORDS_JSON = "words.json"
TRIGRAMS_JSON = "trigrams.json"
WEIGHTS = "weights.pt"
WORD_VECTORS = "word_vectors.npy"  # = filters.paragram.WORD_MODEL_VECTORS
WORD_VOCAB = "vocab.txt"  # = filters.paragram.WORD_MODEL_VOCAB
_WORD_TABLE_KEYS = ("parts.word.table.weight", "parts.word.table.frozen")


def _word_only(model: EmbeddingModel) -> bool:
    return model.spec.components == ["word"]


def _word_table(model: EmbeddingModel) -> tuple[list[str], np.ndarray]:
    """(words without ``<pad>``, float32 matrix) of a WORD model."""
    if "word" not in model.encoder.parts or model.words is None:
        raise ValueError(f"{model!r} has no WORD component to export")
    part = model.encoder.parts["word"]
    assert isinstance(part, WordAverage)
    matrix = part.table.full_matrix().detach().float().cpu().numpy()
    words = model.words.words
    assert words[0] == PAD and matrix.shape[0] == len(words)
    return words[1:], np.ascontiguousarray(matrix[1:])


def export_word_vectors(model: EmbeddingModel, path: str | Path,
                        format: Literal["text", "word_model"] = "text") -> Path:
    """Write the WORD component's vectors: ``text`` — one ``word v1 ... vn`` line per word (``%.9g``: float32
    round-trips exactly); ``word_model`` — ``word_vectors.npy`` + ``vocab.txt`` in directory ``path``. Both load
    with :func:`paranmt.core.word_vectors.load_word_vectors`. ``<unk>`` is included (Moses never yields it as a
    token)."""
    words, matrix = _word_table(model)
    path = Path(path)
    if format == "word_model":
        path.mkdir(parents=True, exist_ok=True)
        np.save(path / WORD_VECTORS, matrix)
        (path / WORD_VOCAB).write_text("".join(w + "\n" for w in words), encoding="utf-8")
        return path
    if format != "text":
        raise ValueError(f"export format must be 'text' or 'word_model', got {format!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        for start in range(0, len(words), 20_000):
            block = matrix[start:start + 20_000]
            rows = [" ".join(f"{v:.9g}" for v in row) for row in block.tolist()]
            out.write("".join(f"{w} {r}\n" for w, r in zip(words[start:start + 20_000], rows, strict=True)))
    os.replace(tmp, path)
    return path


def save_model(model: EmbeddingModel, directory: str | Path, extra: dict | None = None) -> Path:
    """Write ``model`` as a self-contained directory (replacing one that exists). Returns the directory."""
    directory = Path(directory)
    with staged_directory(directory) as staging:
        meta = {"format": MODEL_FORMAT, "spec": model.spec.to_json(), "torch": torch.__version__,
                "dim": model.dim, **(extra or {})}
        (staging / MODEL_JSON).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        if model.words is not None:
            model.words.save(staging / WORDS_JSON)
        if model.trigrams is not None:
            model.trigrams.save(staging / TRIGRAMS_JSON)
        if model.pieces is not None:
            model.pieces.save(staging / SentencePieceVocab.FILE)
        if model.static is not None:  # the tokenizer only: the table is in weights.pt
            (staging / StaticVocab.FILE).write_text(model.static.tokenizer_json, encoding="utf-8")
        state = {k: v.detach().cpu().contiguous() for k, v in model.encoder.state_dict().items()}
        if _word_only(model):  # word_vectors.npy is the one copy of the word table (the paragram layout)
            export_word_vectors(model, staging, format="word_model")
            state = {k: v for k, v in state.items() if k not in _WORD_TABLE_KEYS}
        torch.save(state, staging / WEIGHTS)
    return directory


def load_embedding_model(directory: Path, meta: dict[str, Any], device: str | torch.device = "cpu") -> EmbeddingModel:
    """The :class:`EmbeddingModel` in ``directory`` (written by :func:`save_model`; ``meta``: its ``model.json``)."""
    if meta.get("format") != MODEL_FORMAT:
        raise ModelLoadError(f"{directory}: model format {meta.get('format')}, this code reads {MODEL_FORMAT}")
    spec = ModelSpec.from_json(meta["spec"])
    words = WordVocab.load(directory / WORDS_JSON) if spec.uses_words else None
    trigrams = TrigramVocab.load(directory / TRIGRAMS_JSON) if spec.uses_trigrams else None
    pieces = None
    if spec.uses_pieces:
        if not (directory / SentencePieceVocab.FILE).is_file():
            raise ModelLoadError(f"{directory}: missing {SentencePieceVocab.FILE} (the model's SentencePiece model)")
        pieces = SentencePieceVocab.load(directory / SentencePieceVocab.FILE)
    static = None
    if spec.uses_static:
        if not (directory / StaticVocab.FILE).is_file():
            raise ModelLoadError(f"{directory}: missing {StaticVocab.FILE} (the static component's tokenizer)")
        static = StaticVocab((directory / StaticVocab.FILE).read_text(encoding="utf-8"))
    if not (directory / WEIGHTS).is_file():
        raise ModelLoadError(f"{directory}: missing {WEIGHTS}")
    encoder = SentenceEncoder(spec)
    state = torch.load(directory / WEIGHTS, map_location="cpu", weights_only=True)
    if spec.components == ["word"] and _WORD_TABLE_KEYS[0] not in state:
        matrix = np.load(directory / WORD_VECTORS, allow_pickle=False)
        expected = (spec.n_words - 1, spec.word_dim)
        if matrix.shape != expected:
            raise ModelLoadError(f"{directory / WORD_VECTORS} has shape {matrix.shape}, the model needs {expected}")
        table = torch.cat([torch.zeros(1, spec.word_dim), torch.from_numpy(matrix).float()])  # <pad> first
        state[_WORD_TABLE_KEYS[0]] = table[:spec.n_trainable_words]
        state[_WORD_TABLE_KEYS[1]] = table[spec.n_trainable_words:]
    encoder.load_state_dict(state)
    encoder.eval()
    return EmbeddingModel(spec, encoder, words, trigrams, pieces, static).to(device)


def _load_sif_model(directory: Path, meta: dict[str, Any], device: str | torch.device = "cpu") -> SifModel:
    """A SIF model (NumPy, CPU): ``meta`` is read again by :func:`train_embeddings.models.sif.load_sif`; ``device`` is
    ignored."""
    return load_sif(directory)


ModelLoader = Callable[[Path, dict[str, Any], str | torch.device], EmbeddingModel | SifModel]

# model.json's "model_type" -> the loader of that kind of directory.
MODEL_LOADERS: dict[str, ModelLoader] = {EMBEDDING_MODEL_TYPE: load_embedding_model, SIF_MODEL_TYPE: _load_sif_model}


def load_model(path: str | Path, device: str | torch.device = "cpu") -> EmbeddingModel | SifModel:
    """Load a saved model directory (or a training run's ``best/``, else ``model/``), whatever its kind.

    The ``"model_type"`` of its ``model.json`` picks the loader in :data:`MODEL_LOADERS`: none (a directory written by
    :func:`save_model`) → :class:`~train_embeddings.models.embedding_model.EmbeddingModel` on ``device``; ``"sif"``
    (written by :mod:`train_embeddings.models.sif`) → :class:`train_embeddings.models.sif.SifModel` (NumPy, CPU; same
    ``encode`` / ``similarity`` interface; ``device`` is ignored)."""
    directory = model_directory(Path(path))
    meta = json.loads((directory / MODEL_JSON).read_text(encoding="utf-8"))
    model_type = meta.get("model_type", EMBEDDING_MODEL_TYPE)
    loader = MODEL_LOADERS.get(model_type)
    if loader is None:
        raise ModelLoadError(f"{directory}: model_type {model_type!r}, this code reads {sorted(MODEL_LOADERS)}")
    return loader(directory, meta, device)

