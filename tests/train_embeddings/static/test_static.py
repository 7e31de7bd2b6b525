"""The static encoder (train_embeddings/static/): a tiny sentence-transformers teacher built here (a 1-layer BERT
over a WordPiece vocabulary of the pairs' words, mean pooling; nothing downloaded) is distilled with model2vec,
trained a few steps on real paraphrase pairs, saved, loaded, exported to model2vec and sentence-transformers and loaded
there exactly as docs/embeddings.md shows. Needs the ``static`` and ``st`` extras."""

from __future__ import annotations

import numpy as np
import pytest

from paranmt.core.hf_imports import hide_broken_torchaudio
from tests.support.static_teacher import tiny_teacher
from tests.support.training_pairs import tatoeba_pairs_parquet, tiny

hide_broken_torchaudio()
pytest.importorskip("model2vec.distill", reason="the static extra (model2vec, skeletoken) is not installed")
pytest.importorskip("sentence_transformers", reason="the st extra is not installed")

from paranmt.cli.paranmt_command import main as paranmt  # noqa: E402
from tests.support.commands import run_paranmt  # noqa: E402
from train_embeddings.models.model_io import load_model  # noqa: E402
from train_embeddings.static.teacher import STATIC, distill_teacher  # noqa: E402
from train_embeddings.training.trainer import train  # noqa: E402

# Every piece of these is in the teacher's vocabulary: sentence-transformers' StaticEmbedding keeps [UNK] pieces
# in its mean where model2vec and paranmt drop them, so the exports agree exactly on text without unknown pieces.
PROBE = ["A man is playing a guitar.", "Two dogs run in the snow.", "A woman is sitting on a bench."]


@pytest.fixture(scope="module")
def teacher(tmp_path_factory):
    return tiny_teacher(tmp_path_factory.mktemp("teacher"), PROBE)


@pytest.fixture(scope="module")
def trained(teacher, tmp_path_factory):
    data = tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=200)
    cache = tmp_path_factory.mktemp("cache")
    out = tmp_path_factory.mktemp("run") / "static"
    cfg = tiny("static,trigram", data, teacher=str(teacher), static_pca_dims=8, static_cache=str(cache),
               static_teacher_loss=0.5, static_pull=0.1, lr=0.05)
    result = train(cfg, out, evaluate_fn=None, progress=False)
    return result, teacher, cache, out


def test_distillation_is_model2vec_and_is_cached(teacher, tmp_path) -> None:
    from model2vec.distill import distill

    vocab = distill_teacher(teacher, pca_dims=8, cache=tmp_path)
    assert vocab.initial is not None and vocab.initial.shape[1] == 8 and len(vocab) > 300
    reference = distill(model_name=str(teacher), pca_dims=8, device="cpu", quantize_to="float32")
    np.testing.assert_allclose(vocab.initial, reference.embedding, atol=1e-5)
    ids, offsets = vocab.encode_strings(PROBE)
    assert [list(ids[offsets[i]:offsets[i + 1]]) for i in range(len(PROBE))] == reference.tokenize(PROBE)
    again = distill_teacher(teacher, pca_dims=8, cache=tmp_path)  # read back, not recomputed
    np.testing.assert_array_equal(again.initial, vocab.initial)


def test_trains_saves_loads_and_combines(trained) -> None:
    result, _, _, out = trained
    assert result.steps == 4 and all(np.isfinite(result.losses))
    model = load_model(out)
    assert model.spec.components == [STATIC, "trigram"] and model.dim == 8 + 16
    vectors = model.encode(PROBE)
    assert vectors.shape == (3, 24) and np.isfinite(vectors).all()
    distilled = np.load(out / "vocab" / "static_init.npy")
    table = model.encoder.parts[STATIC].embedding.weight.detach().numpy()
    assert table.shape == distilled.shape and not np.allclose(table, distilled)  # started there, then trained


def test_a_combination_exports_to_sentence_transformers(trained, tmp_path) -> None:
    from sentence_transformers import SentenceTransformer

    from train_embeddings.export.st_export import export_sentence_transformers

    _, _, _, out = trained
    model = load_model(out)
    export_sentence_transformers(model, tmp_path / "st")  # the paranmt module: raw text for static, Moses for trigram
    st = SentenceTransformer(str(tmp_path / "st"), device="cpu", trust_remote_code=True)
    np.testing.assert_allclose(st.encode(PROBE), model.encode(PROBE), atol=1e-5)


@pytest.fixture(scope="module")
def static_run(teacher, tmp_path_factory):
    root = tmp_path_factory.mktemp("static-only")
    data = tatoeba_pairs_parquet(root / "tatoeba-pairs", n=120)
    cfg = tiny(STATIC, data, teacher=str(teacher), static_pca_dims=8, static_cache=str(root / "cache"), lr=0.05)
    train(cfg, root / "run", evaluate_fn=None, progress=False)
    return root / "run"


def test_static_only_exports_to_model2vec_and_sentence_transformers(static_run, tmp_path) -> None:
    from model2vec import StaticModel
    from sentence_transformers import SentenceTransformer

    model = load_model(static_run)
    assert not model.spec.uses_tokens  # raw text only: Moses never runs on this path
    ours = model.encode(PROBE)
    assert paranmt(["export", "--format", "model2vec", "--model", str(static_run), "--out", str(tmp_path / "m2v")]) == 0
    m2v = StaticModel.from_pretrained(str(tmp_path / "m2v"))  # as docs/embeddings.md shows
    np.testing.assert_allclose(m2v.encode(PROBE, normalize=False), ours, atol=1e-5)
    assert paranmt(["export", "--format", "sentence-transformers", "--model", str(static_run),
                    "--out", str(tmp_path / "st")]) == 0
    st = SentenceTransformer(str(tmp_path / "st"), device="cpu")  # a library module: no trust_remote_code
    np.testing.assert_allclose(st.encode(PROBE), ours, atol=1e-5)


def test_scores_pairs_as_a_filter_score(static_run) -> None:
    import pyarrow as pa

    from filters.plugins import build_scores
    from pipeline.graph import RUN_SCORES

    [score] = build_scores([{"paranmt_model": {"model": str(static_run), "column": "static_cosine"}}], RUN_SCORES)
    table = pa.table({"en": [*PROBE, None], "mt": [PROBE[0], PROBE[0], PROBE[2], "x"]})
    values = score.score(table)["static_cosine"]
    expected = load_model(static_run).similarity(PROBE, [PROBE[0], PROBE[0], PROBE[2]])
    np.testing.assert_allclose(values.to_numpy(zero_copy_only=False)[:3], expected, atol=1e-6)
    assert values[3].as_py() is None and values[0].as_py() == pytest.approx(1.0, abs=1e-6)


def test_train_static_shows_paranmt_lines_only(teacher, tmp_path, monkeypatch, capsys) -> None:
    """``train --model static`` shows the trainer's lines (and warnings) only, not skeletoken's and model2vec's INFO
    lines and progress bars while it distils (a fresh cache distils again here)."""
    monkeypatch.setenv("PARANMT_CACHE", str(tmp_path / "cache"))
    data = tatoeba_pairs_parquet(tmp_path / "tatoeba-pairs", n=100)
    assert paranmt(["train", "--input", str(data), "--model", "static", "--teacher", str(teacher), "--pca-dims", "8",
                    "--out", str(tmp_path / "run"), "--no-eval", "--quiet", "--max-steps", "2"]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    assert any("distilling" in line for line in lines), lines  # it did distil
    others = [line for line in lines[:-1] if not line.startswith(("INFO train_embeddings.", "WARNING "))]
    assert not others and lines[-1].startswith("2 updates") and "%|" not in "".join(lines), "\n".join(lines)


def test_train_static_draws_no_carriage_return_bar_where_stderr_is_not_a_terminal(teacher, tmp_path) -> None:
    """Loading the teacher (transformers' "Loading weights"), encoding its targets, distilling it (model2vec) and
    training draw tqdm bars on a terminal; into a pipe or a log file, stderr holds lines only."""
    data = tatoeba_pairs_parquet(tmp_path / "tatoeba-pairs", n=100)
    done = run_paranmt("train", "--input", str(data), "--model", "static", "--teacher", str(teacher), "--pca-dims",
                       "8", "--out", str(tmp_path / "run"), "--no-eval", "--max-steps", "2",
                       "--set", f"train.static_cache={tmp_path / 'cache'}", "--set", "train.static_teacher_loss=0.5")
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "distilling" in done.stderr, done.stderr
