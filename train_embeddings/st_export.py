"""Export a paranmt model as a sentence-transformers model directory (the ``st`` extra).

    from train_embeddings.st_export import export_sentence_transformers
    export_sentence_transformers(load_model("runs/word"), "exported/word")
    # then, anywhere paranmt is installed:
    SentenceTransformer("exported/word", trust_remote_code=True).encode(sentences)  # = load_model(...).encode

* WORD models become the library's own ``WordEmbeddings`` (the word table, ``<pad>`` row zero) + ``Pooling``
  (mean over the tokens) with :class:`~train_embeddings.st_modules.MosesWordTokenizer`, which reproduces this
  project's tokenisation exactly (Moses, punctuation normalisation, lower-cased lookup, ``<unk>`` kept in the mean).
* Every other model (TRIGRAM, LSTM/BLSTM, combinations, …) becomes one
  :class:`~train_embeddings.st_modules.ParanmtEncoder` module holding the paranmt model directory.

Both custom classes are imported from the installed ``train_embeddings`` package, not copied into the directory:
one implementation of the tokeniser and encoders, versioned with paranmt. sentence-transformers 6 asks for
``trust_remote_code=True`` before importing any class outside its namespace, local directories included.
"""

from __future__ import annotations

from pathlib import Path

import torch

from train_embeddings.files import staged_directory
from train_embeddings.models import EmbeddingModel, WordAverage
from train_embeddings.st_modules import MosesWordTokenizer, ParanmtEncoder
from train_embeddings.vocab import PAD

# isort: split
# sentence_transformers after st_modules, whose import hides a broken torchaudio first (see hf_imports)
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Pooling, WordEmbeddings

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
    modules = _word_modules(model) if model.spec.components == ["word"] else [ParanmtEncoder(model)]
    exported = SentenceTransformer(modules=modules, device="cpu")
    directory = Path(directory)
    with staged_directory(directory) as staging:
        exported.save(str(staging))
    return directory
