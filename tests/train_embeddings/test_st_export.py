"""sentence-transformers export (train_embeddings/st_export.py, st_modules.py): tiny models trained in seconds on
real caption pairs, exported, loaded by ``SentenceTransformer(path, trust_remote_code=True)``; its ``encode``
equals paranmt's to 1e-5 for WORD, TRIGRAM, LSTM, BLSTM and a combination. Needs the ``st`` extra (CI installs
``.[all]``, which includes it)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.paranmt_command import main as paranmt
from tests.train_embeddings.helpers import caption_lines, caption_parquet
from tests.train_embeddings.test_model_io import tiny
from train_embeddings import load_model
from train_embeddings.hf_imports import import_sentence_transformers
from train_embeddings.train import train

pytestmark = pytest.mark.timeout(300)

try:
    sentence_transformers = import_sentence_transformers()
except ImportError as error:  # the st extra is optional; CI installs .[all]
    pytest.skip(f"{error}", allow_module_level=True)

from train_embeddings.st_export import export_sentence_transformers  # noqa: E402

RAW = ["A man in a blue shirt is playing the guitar.", "Two dogs run through the snow!", "",
       "Ünïcode café “quoted” -- and an unknownword-xyz", "don't stop: 3:00 p.m. (really)"]


@pytest.fixture(scope="module")
def captions(tmp_path_factory):
    return caption_parquet(tmp_path_factory.mktemp("captions"), n=300)


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    return [*RAW, *caption_lines(3, 200)]


@pytest.mark.parametrize("components", ["word", "trigram", "lstm", "blstm", "word,trigram"])
def test_sentence_transformers_encode_equals_paranmt(components, captions, sentences, tmp_path) -> None:
    run = train(tiny(components, captions, max_steps=6), tmp_path / "run", evaluate_fn=None, progress=False)
    model = load_model(run.model_dir)
    expected = model.encode(sentences)
    out = export_sentence_transformers(model, tmp_path / "st")
    modules = [entry["type"] for entry in json.loads((out / "modules.json").read_text())]
    if components == "word":  # the library's own modules, with this project's tokeniser
        assert [m.rsplit(".", 1)[1] for m in modules] == ["WordEmbeddings", "Pooling"]
    else:
        assert modules == ["train_embeddings.st_modules.ParanmtEncoder"]
    with pytest.raises(ValueError, match="trust_remote_code"):
        sentence_transformers.SentenceTransformer(str(out), device="cpu")
    loaded = sentence_transformers.SentenceTransformer(str(out), device="cpu", trust_remote_code=True)
    got = loaded.encode(sentences, batch_size=32, convert_to_numpy=True)
    assert got.shape == expected.shape == (len(sentences), model.dim)
    assert np.abs(got - expected).max() <= 1e-5
    assert not got[2].any()  # the empty sentence embeds to zero in both
    assert loaded.get_embedding_dimension() == model.dim


def test_export_refuses_what_is_not_an_encoder(tmp_path) -> None:
    with pytest.raises(ValueError, match="not a trained paranmt encoder"):
        export_sentence_transformers(object(), tmp_path / "st")  # type: ignore[arg-type]


def test_paranmt_export_command(captions, tmp_path, capsys) -> None:
    run = train(tiny("word", captions), tmp_path / "run", evaluate_fn=None, progress=False)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run.out_dir), "--out",
                    str(tmp_path / "st")]) == 0
    assert "as a sentence-transformers model" in capsys.readouterr().err
    loaded = sentence_transformers.SentenceTransformer(str(tmp_path / "st"), device="cpu", trust_remote_code=True)
    expected = load_model(run.out_dir).encode(RAW)
    assert np.abs(loaded.encode(RAW) - expected).max() <= 1e-5
