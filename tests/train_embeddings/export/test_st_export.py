"""sentence-transformers export (train_embeddings/export/st_export.py; its modules: tests/train_embeddings/
test_st_modules.py): tiny models trained in seconds on real paraphrase pairs, exported, loaded by
``SentenceTransformer(path, trust_remote_code=True)``; its ``encode`` equals paranmt's to 1e-5 for WORD, TRIGRAM,
LSTM, BLSTM and a combination. This project's STS numbers equal sentence-transformers' own
``EmbeddingSimilarityEvaluator`` on the same model (1e-4), for an exported model and for the all-MiniLM-L6-v2
baseline. Needs the ``st`` extra (CI installs ``.[all]``, which includes it)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paranmt.cli.paranmt_command import main as paranmt
from paranmt.core.hf_imports import import_sentence_transformers
from tests.support.sts_layout import write_sts_dir
from tests.support.training_pairs import pair_lines, tiny
from train_embeddings.evaluation import sts
from train_embeddings.models.model_io import load_model
from train_embeddings.training.trainer import train

try:
    sentence_transformers = import_sentence_transformers()
except ImportError as error:  # the st extra is optional; CI installs .[all]
    pytest.skip(f"{error}", allow_module_level=True)

from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator

from train_embeddings.export.st_export import export_sentence_transformers

RAW = ["A man in a blue shirt is playing the guitar.", "Two dogs run through the snow!", "",
       "Ünïcode café “quoted” -- and an unknownword-xyz", "don't stop: 3:00 p.m. (really)"]


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    return [*RAW, *pair_lines("other", 200)]


@pytest.mark.parametrize("components", ["word", "trigram", "lstm", "blstm", "word,trigram", "sp", "sp,word"])
def test_sentence_transformers_encode_equals_paranmt(components, tatoeba_pairs, sentences, tmp_path) -> None:
    run = train(tiny(components, tatoeba_pairs, max_steps=6), tmp_path / "run", evaluate_fn=None, progress=False)
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


def test_paranmt_export_command(tatoeba_pairs, tmp_path, capsys) -> None:
    run = train(tiny("word", tatoeba_pairs), tmp_path / "run", evaluate_fn=None, progress=False)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(run.out_dir), "--out",
                    str(tmp_path / "st")]) == 0
    assert "as a sentence-transformers model" in capsys.readouterr().err
    loaded = sentence_transformers.SentenceTransformer(str(tmp_path / "st"), device="cpu", trust_remote_code=True)
    expected = load_model(run.out_dir).encode(RAW)
    assert np.abs(loaded.encode(RAW) - expected).max() <= 1e-5


def library_metrics(model, sentences1, sentences2, scores) -> tuple[float, float]:
    """(Pearson, Spearman) of cosine similarities by sentence-transformers' own evaluator."""
    evaluator = EmbeddingSimilarityEvaluator(list(sentences1), list(sentences2), [float(x) for x in scores],
                                             batch_size=64, similarity_fn_names=["cosine"], write_csv=False)
    metrics = evaluator(model)
    pick = {key.rsplit("_", 2)[-2]: value for key, value in metrics.items() if key.endswith("_cosine")}
    return float(pick["pearson"]), float(pick["spearman"])


def pooled(year: sts.StsYear) -> tuple[list[str], list[str], np.ndarray]:
    return ([s for d in year.values() for s in d.sentences1], [s for d in year.values() for s in d.sentences2],
            np.concatenate([d.scores for d in year.values()]))


def test_sts_numbers_equal_the_sentence_transformers_evaluator(tatoeba_pairs, tmp_path) -> None:
    # STS13 and STS-B in their layout, made of the bundled pairs (tests/support/sts_layout.py:write_sts_dir): the two
    # evaluators read the same files
    bench = sts.load_benchmarks(write_sts_dir(tmp_path / "sts"), years=(2013,), stsb=True)
    run = train(tiny("word,trigram", tatoeba_pairs, max_steps=10), tmp_path / "run", evaluate_fn=None, progress=False)
    export_sentence_transformers(load_model(run.model_dir), tmp_path / "st")
    loaded = sentence_transformers.SentenceTransformer(str(tmp_path / "st"), device="cpu", trust_remote_code=True)
    report = sts.evaluate_all(load_model(run.model_dir).encode, data=bench)
    test = bench.stsb["stsb_test"]
    pearson, spearman = library_metrics(loaded, test.sentences1, test.sentences2, test.scores)
    assert abs(pearson - report.stsb["stsb_test"].pearson) <= 1e-4
    assert abs(spearman - report.mteb_scores()["STSBenchmark"]) <= 1e-4
    _, spearman13 = library_metrics(loaded, *pooled(bench.years[0]))  # MTEB's STS13: the pooled year
    assert abs(spearman13 - report.mteb_scores()["STS13"]) <= 1e-4
    assert abs(spearman13) > 0.05  # a trained model, not noise around zero


def test_minilm_baseline_unzips_once_and_matches_the_evaluator(tmp_path) -> None:
    directory = sts.minilm_directory(tmp_path / "cache")
    assert (directory / "modules.json").is_file() and directory.name.startswith("all-MiniLM-L6-v2-")
    assert sts.minilm_directory(tmp_path / "cache") == directory  # the second use finds the unzipped copy
    encoder = sts.MiniLMEncoder(directory)
    # An STS13 sub-dataset in its layout, made of the bundled pairs (tests/support/sts_layout.py:write_sts_dir)
    dataset = sts.load_sts_year(write_sts_dir(tmp_path / "sts") / "STS13")["tatoeba"]
    ours = sts.evaluate_dataset(encoder, dataset)
    pearson, spearman = library_metrics(encoder.model, dataset.sentences1, dataset.sentences2, dataset.scores)
    assert abs(pearson - ours.pearson) <= 1e-4 and abs(spearman - ours.spearman) <= 1e-4
    assert ours.pearson > 0.3  # all-MiniLM-L6-v2, not random vectors
    vectors = encoder(["A man is playing a guitar.", "Someone plays the guitar.", "The stock market fell."])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    cos = sts.cosine_similarity(vectors[[0, 0]], vectors[[1, 2]])
    assert cos[0] > cos[1] + 0.3
