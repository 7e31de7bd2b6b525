"""The sentence-transformers modules that run paranmt models (train_embeddings/st_modules.py): the WORD tokeniser's
ids are the vocabulary's ids of the Moses tokens, it and the whole-model module save and load, the module's
embeddings are the model's; exported folders name this module. Needs the ``st`` extra."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paranmt.core.hf_imports import import_sentence_transformers
from paranmt.core.text import CachedTokenizer
from tests.support.training_pairs import tiny
from train_embeddings.models.model_io import load_model
from train_embeddings.training.preparation import prepare_training
from train_embeddings.training.trainer import train
from train_embeddings.vocab import PAD, UNK

try:
    import_sentence_transformers()
except ImportError as error:  # the st extra is optional; CI installs .[all]
    pytest.skip(f"{error}", allow_module_level=True)

from train_embeddings.export.st_export import export_sentence_transformers
from train_embeddings.st_modules import TOKENIZER_CONFIG, TOKENIZER_WORDS, MosesWordTokenizer, ParanmtEncoder

RAW = ["The dog's ball, isn't it?", "", "Ünïcode café and an unknownword-xyz"]


def test_exported_folders_name_the_st_modules_path(tatoeba_pairs, tmp_path) -> None:
    """The one saved artefact that names a module: an exported folder (``modules.json``; a WORD export's
    ``tokenizer_class``), from which sentence-transformers imports the class. Every folder exported so far names
    ``train_embeddings.st_modules``, so the classes stay in that module, whatever else moves."""
    run = train(tiny("word", tatoeba_pairs, max_steps=2), tmp_path / "run", evaluate_fn=None, progress=False)
    out = export_sentence_transformers(load_model(run.model_dir), tmp_path / "st")
    config = json.loads((out / "wordembedding_config.json").read_text())
    assert config["tokenizer_class"] == "train_embeddings.st_modules.MosesWordTokenizer"
    assert MosesWordTokenizer.__module__ == ParanmtEncoder.__module__ == "train_embeddings.st_modules"


def test_the_word_tokeniser_gives_the_vocabularys_ids_of_the_moses_tokens(tmp_path) -> None:
    words = [PAD, UNK, "the", "dog", "'s", "ball", ",", "it", "?", "café"]
    tokenizer = MosesWordTokenizer(words)
    for text in RAW:
        expected = [words.index(t.lower()) if t.lower() in words else 1 for t in CachedTokenizer()([text])[0]]
        assert tokenizer.tokenize(text) == expected
    assert tokenizer.tokenize("The DOG") == [2, 3]  # looked up lower-cased
    tokenizer.save(str(tmp_path))
    assert json.loads((tmp_path / TOKENIZER_WORDS).read_text(encoding="utf-8")) == words
    assert json.loads((tmp_path / TOKENIZER_CONFIG).read_text())["lowercase"] is True
    loaded = MosesWordTokenizer.load(str(tmp_path))
    assert loaded.get_vocab() == words and loaded.tokenize(RAW[0]) == tokenizer.tokenize(RAW[0])
    assert MosesWordTokenizer(words, lowercase=False).tokenize("The dog") == [1, 3]
    with pytest.raises(ValueError, match=r"no vocabulary: set_vocab\(\) first"):
        MosesWordTokenizer().tokenize("a")


def test_the_whole_model_module_embeds_as_the_model_and_round_trips(tatoeba_129_pairs, tmp_path) -> None:
    model = prepare_training(tiny("word,trigram", tatoeba_129_pairs), tmp_path / "run", evaluate_fn=None,
                             progress=False).model
    module = ParanmtEncoder(model).eval()
    features = module.preprocess(RAW)
    assert int(features["n"][0]) == 3 and {"word_ids", "trigram_ids"} <= set(features)
    out = module(features)["sentence_embedding"].detach().numpy()
    np.testing.assert_allclose(out, model.encode(RAW), atol=1e-6)
    assert module.get_embedding_dimension() == model.dim == 32
    prompted = module(module.preprocess(["dog"], prompt="the "))["sentence_embedding"].detach().numpy()
    np.testing.assert_allclose(prompted, model.encode(["the dog"]), atol=1e-6)
    module.save(str(tmp_path / "module"))
    again = ParanmtEncoder.load(str(tmp_path), subfolder="module").eval()
    np.testing.assert_array_equal(again(again.preprocess(RAW))["sentence_embedding"].detach().numpy(),
                                  out)
    with pytest.raises(FileNotFoundError, match=r"nothing: no model\.json \(not a module written by paranmt export\)"):
        ParanmtEncoder.load(str(tmp_path / "nothing"))
