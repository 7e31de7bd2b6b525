"""The static encoder (train_embeddings/static/): a tiny sentence-transformers teacher built here (a 1-layer BERT
over a WordPiece vocabulary of the pairs' words, mean pooling; nothing downloaded) is distilled with model2vec,
trained a few steps on real paraphrase pairs with another component, saved, loaded and exported to
sentence-transformers; ``train --model static`` prints lines only (the distillation: static/test_teacher.py; the
model2vec export: export/test_static_export.py; the pair score: test_pair_score.py). Needs the ``static`` and ``st``
extras."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.static_teacher import PROBE, static_extras
from tests.support.training_pairs import tatoeba_pairs_parquet, tiny

static_extras()

from paranmt.cli.paranmt_command import main as paranmt  # noqa: E402
from tests.support.commands import run_paranmt  # noqa: E402
from train_embeddings.models.model_io import load_model  # noqa: E402
from train_embeddings.static.teacher import STATIC  # noqa: E402
from train_embeddings.training.trainer import train  # noqa: E402


@pytest.fixture(scope="module")
def trained(teacher, tmp_path_factory):
    data = tatoeba_pairs_parquet(tmp_path_factory.mktemp("tatoeba-pairs"), n=200)
    cache = tmp_path_factory.mktemp("cache")
    out = tmp_path_factory.mktemp("run") / "static"
    cfg = tiny("static,trigram", data, teacher=str(teacher), static_pca_dims=8, static_cache=str(cache),
               static_teacher_loss=0.5, static_pull=0.1, lr=0.05)
    result = train(cfg, out, evaluate_fn=None, progress=False)
    return result, teacher, cache, out


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
