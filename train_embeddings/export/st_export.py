"""Export a paranmt model as a sentence-transformers model directory (the ``st`` extra).

    from train_embeddings.export.st_export import export_sentence_transformers
    export_sentence_transformers(load_model("runs/word"), "exported/word")
    # then, anywhere paranmt is installed:
    SentenceTransformer("exported/word", trust_remote_code=True).encode(sentences)  # = load_model(...).encode

* WORD models become the library's own ``WordEmbeddings`` (the word table, ``<pad>`` row zero) + ``Pooling``
  (mean over the tokens) with :class:`~train_embeddings.st_modules.MosesWordTokenizer`, which reproduces this
  project's tokenisation exactly (Moses, punctuation normalisation, lower-cased lookup, ``<unk>`` kept in the mean).
* STATIC models become the library's own ``StaticEmbedding`` (the trained table over the teacher's tokenizer; no
  custom code, so no ``trust_remote_code``). It keeps ``[UNK]`` pieces in its mean, which paranmt and model2vec
  drop: the vectors agree on every sentence without an unknown piece.
* Every other model (TRIGRAM, LSTM/BLSTM, combinations, …) becomes one
  :class:`~train_embeddings.st_modules.ParanmtEncoder` module holding the paranmt model directory.

Both custom classes are imported from the installed ``train_embeddings`` package, not copied into the directory:
one implementation of the tokeniser and encoders, versioned with paranmt. sentence-transformers 6 asks for
``trust_remote_code=True`` before importing any class outside its namespace, local directories included.
"""

from __future__ import annotations

from pathlib import Path

import torch

from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_dir import staged_directory
from train_embeddings.models.word_average import WordAverage
from train_embeddings.st_modules import MosesWordTokenizer, ParanmtEncoder
from train_embeddings.vocab import PAD

# isort: split
# sentence_transformers after st_modules, whose import hides a broken torchaudio first (see hf_imports)
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Pooling, StaticEmbedding, WordEmbeddings
from tokenizers import Tokenizer

from train_embeddings.export.static_export import static_table
from train_embeddings.static.teacher import STATIC

__all__ = ["export_sentence_transformers"]


def _word_modules(model: EmbeddingModel) -> list[torch.nn.Module]:
    part = model.encoder.parts["word"]
    assert isinstance(part, WordAverage) and model.words is not None
    table = part.table.full_matrix().detach().float().cpu()
    assert model.words.words[0] == PAD and table.shape[0] == len(model.words)
    tokenizer = MosesWordTokenizer(model.words.words, model.spec.tokenizer,
                                   bool(model.spec.tokenizer.get("lowercase", True)))
    embeddings = WordEmbeddings(tokenizer, table, update_embeddings=False)
    return [embeddings, Pooling(int(table.shape[1]), pooling_mode="mean")]


def export_sentence_transformers(model: EmbeddingModel, directory: str | Path) -> Path:
    """Write ``model`` as a sentence-transformers directory (replacing one that exists); returns it."""
    if not isinstance(model, EmbeddingModel):
        raise ValueError(f"{model!r} is not a trained paranmt encoder: only EmbeddingModel directories export")
    model.to("cpu")
    if model.spec.components == ["word"]:
        modules = _word_modules(model)
    elif model.spec.components == [STATIC]:
        assert model.static is not None
        tokenizer = Tokenizer.from_str(model.static.tokenizer_json)
        modules = [StaticEmbedding(tokenizer, embedding_weights=static_table(model))]
    else:
        modules = [ParanmtEncoder(model)]
    exported = SentenceTransformer(modules=modules, device="cpu")
    directory = Path(directory)
    with staged_directory(directory) as staging:
        exported.save(str(staging))
    return directory
