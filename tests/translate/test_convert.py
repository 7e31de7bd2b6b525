"""The model converters (``paranmt convert``) on the toy model and on packages built here."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
import sentencepiece as spm

from configs.schema import TranslateConfig
from paranmt.cli.convert_command import main
from tests.support.nmt_models import TOY_TRAIN_PAIRS
from translate.card import ModelDir
from translate.loading import load_translator
from translate.translator import Status


def config(model: Path, backend: str = "ctranslate2", **overrides) -> TranslateConfig:
    values = {"model": model, "backend": backend, "device": "cpu", "compute_type": "float32", "threads": 1}
    return TranslateConfig(**{**values, **overrides})


@pytest.fixture(scope="module")
def heldout(toy_corpus) -> tuple[list[str], list[str]]:
    cs, en = toy_corpus
    return cs[TOY_TRAIN_PAIRS:TOY_TRAIN_PAIRS + 50], en[TOY_TRAIN_PAIRS:TOY_TRAIN_PAIRS + 50]


@pytest.fixture(scope="module")
def toy_outputs(toy_model, heldout) -> list[str]:
    out = load_translator(config(toy_model)).translate(heldout[0])
    assert all(t.status is Status.OK for t in out)
    return [t.hypothesis for t in out]


def fairseq_args(toy_model: Path, out: Path, *extra: str) -> list[str]:
    return ["fairseq", "--input", str(toy_model / "fairseq" / "checkpoint_best.pt"),
            "--dicts", str(toy_model / "fairseq"), "--bpe-codes", str(toy_model / "bpe.codes"), "--out", str(out),
            *extra]


# ---- fairseq -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def converted_fairseq(tmp_path_factory, toy_model) -> Path:
    out = tmp_path_factory.mktemp("conv") / "toy-fairseq"
    assert main(fairseq_args(toy_model, out, "--name", "toy-converted")) == 0
    return out


def test_fairseq_conversion_writes_a_complete_model_directory(converted_fairseq, capsys):
    model_dir = ModelDir(converted_fairseq)
    card = model_dir.card
    assert card.name == "toy-converted" and (card.source_lang, card.target_lang) == ("cs", "en")
    assert card.preprocess.subword == "bpe" and card.preprocess.tokenize == "moses"
    assert card.postprocess.subword == "bpe" and card.postprocess.detokenize == "moses"
    assert card.ctranslate2 == "ct2" and (converted_fairseq / "ct2" / "model.bin").is_file()
    assert card.fairseq is not None and model_dir.path(card.fairseq.checkpoint).is_file()
    assert card.provenance["converted_from"].startswith("fairseq:")


def test_fairseq_conversion_decodes_like_the_original(converted_fairseq, heldout, toy_outputs):
    ct2 = load_translator(config(converted_fairseq, "ctranslate2")).translate(heldout[0])
    assert [t.hypothesis for t in ct2] == toy_outputs
    fairseq = load_translator(config(converted_fairseq, "fairseq"))
    assert fairseq.backend.name == "fairseq"
    out = fairseq.translate(heldout[0])
    assert all(t.status is Status.OK for t in out)
    assert sum(a.hypothesis == b for a, b in zip(out, toy_outputs, strict=True)) / len(out) >= 0.95


def test_fairseq_conversion_with_int8_weights(tmp_path, toy_model, heldout, toy_outputs):
    out = tmp_path / "toy-int8"
    assert main(fairseq_args(toy_model, out, "--quantization", "int8")) == 0
    ModelDir(out)
    assert (out / "ct2" / "model.bin").stat().st_size < (toy_model / "ct2" / "model.bin").stat().st_size
    for backend in ("ctranslate2", "fairseq"):
        translator = load_translator(config(out, backend, compute_type="auto"))
        assert translator.backend.name == backend
        results = translator.translate(heldout[0])
        assert all(t.status is Status.OK for t in results)
        assert sum(t.hypothesis == ref for t, ref in zip(results, heldout[1], strict=True)) / len(results) >= 0.9
    int8 = load_translator(config(out, "ctranslate2", compute_type="int8"))
    assert int8.backend.compute_type.startswith("int8")  # int8_float32 on CPU


def test_fairseq_conversion_without_the_checkpoint(tmp_path, toy_model, heldout, toy_outputs):
    """--no-keep-checkpoint (how the bundled default model was made): a CTranslate2-only directory."""
    out = tmp_path / "toy-ct2-only"
    assert main(fairseq_args(toy_model, out, "--quantization", "int8", "--no-keep-checkpoint")) == 0
    card = ModelDir(out).card
    assert card.fairseq is None and not (out / "fairseq").exists() and card.ctranslate2 == "ct2"
    results = load_translator(config(out, "ctranslate2", compute_type="auto")).translate(heldout[0])
    assert sum(t.hypothesis == ref for t, ref in zip(results, heldout[1], strict=True)) / len(results) >= 0.9


# ---- card ----------------------------------------------------------------------------------------------------


def test_card_for_an_existing_ctranslate2_model(tmp_path, toy_model, heldout, toy_outputs):
    out = tmp_path / "carded"
    args = ["card", "--input", str(toy_model / "ct2"), "--bpe-codes", str(toy_model / "bpe.codes"), "--out", str(out)]
    assert main(args) == 0
    card = ModelDir(out).card
    assert card.name == "carded" and card.fairseq is None
    assert Path(card.ctranslate2).resolve() == (toy_model / "ct2").resolve(), "the model is referenced in place"
    assert (out / "bpe.codes").read_bytes() == (toy_model / "bpe.codes").read_bytes()
    out_texts = load_translator(config(out, "auto")).translate(heldout[0])
    assert [t.hypothesis for t in out_texts] == toy_outputs


def test_card_needs_a_subword_model(tmp_path, toy_model, capsys):
    assert main(["card", "--input", str(toy_model / "ct2"), "--out", str(tmp_path / "x")]) == 2
    assert "--spm" in capsys.readouterr().err
    assert main(["card", "--input", str(tmp_path), "--spm", "x.spm", "--out", str(tmp_path / "y")]) == 2
    assert "model.bin not found" in capsys.readouterr().err


# ---- argos ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def argos_package(tmp_path_factory, toy_model, toy_corpus) -> Path:
    """A real .argosmodel layout: <name>/metadata.json, <name>/model/ (CTranslate2), <name>/sentencepiece.model."""
    work = tmp_path_factory.mktemp("argos")
    root = work / "translate-cs_en-1_0"
    root.mkdir()
    metadata = {"package_version": "1.0", "argos_version": "1.9.0", "from_code": "cs", "from_name": "Czech",
                "to_code": "en", "to_name": "English", "type": "translate", "languages": []}
    (root / "metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    shutil.copytree(toy_model / "ct2", root / "model")
    cs, en = toy_corpus
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(cs[:TOY_TRAIN_PAIRS] + en[:TOY_TRAIN_PAIRS]),
                                   model_writer=model, vocab_size=120, character_coverage=1.0, num_threads=1,
                                   hard_vocab_limit=False)
    (root / "sentencepiece.model").write_bytes(model.getvalue())
    package = work / "translate-cs_en-1_0.argosmodel"
    with zipfile.ZipFile(package, "w") as archive:
        for path in sorted(root.rglob("*")):
            archive.write(path, path.relative_to(work).as_posix())
    return package


def test_argos_package(tmp_path, argos_package, heldout):
    out = tmp_path / "argos-cs-en"
    assert main(["argos", "--input", str(argos_package), "--out", str(out)]) == 0
    model_dir = ModelDir(out)
    card = model_dir.card
    assert card.name == "argos-cs-en-1.0" and (card.source_lang, card.target_lang) == ("cs", "en")
    assert card.preprocess.subword == "sentencepiece" and card.postprocess.subword == "sentencepiece"
    assert card.preprocess.tokenize == "none" and card.postprocess.detokenize == "none"
    assert model_dir.path(card.preprocess.sentencepiece_model).name == "sentencepiece.model"
    assert card.ctranslate2 is not None and (model_dir.ct2_dir / "model.bin").is_file()
    assert model_dir.ct2_dir.name == "model"
    translator = load_translator(config(out, "auto"))
    assert translator.backend.name == "ctranslate2"
    # The SentencePiece model trained here and the toy model's BPE vocabulary differ, so the translations are
    # junk (mostly <unk> input): this checks the package mechanics (layout, card, text chain, loading), not
    # translation quality.
    results = translator.translate(heldout[0][:10])
    assert [t.status for t in results] == [Status.OK] * 10
    assert all(t.source_tokens > 0 for t in results)


def test_argos_package_without_metadata(tmp_path, capsys):
    package = tmp_path / "broken.argosmodel"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr("translate-cs_en-1_0/sentencepiece.model", b"")
    assert main(["argos", "--input", str(package), "--out", str(tmp_path / "out")]) == 2
    assert "no metadata.json" in capsys.readouterr().err


def test_argos_package_without_the_model(tmp_path, capsys):
    package = tmp_path / "nomodel.argosmodel"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr("translate-cs_en-1_0/metadata.json", "{}")
    assert main(["argos", "--input", str(package), "--out", str(tmp_path / "out")]) == 2
    assert "expected sentencepiece.model and model/model.bin" in capsys.readouterr().err


def test_argos_package_that_is_not_a_zip(tmp_path, capsys):
    package = tmp_path / "notazip.argosmodel"
    package.write_bytes(b"this is not a zip archive")
    assert main(["argos", "--input", str(package), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "notazip.argosmodel" in err and "zip" in err
    assert main(["argos", "--input", str(tmp_path / "missing.argosmodel"), "--out", str(tmp_path / "o2")]) == 2
    assert "missing.argosmodel" in capsys.readouterr().err


# ---- errors --------------------------------------------------------------------------------------------------


def test_marian_without_sentencepiece_models(tmp_path, capsys):
    folder = tmp_path / "not-opus-mt"
    folder.mkdir()
    (folder / "model.npz").write_bytes(b"")
    assert main(["marian", "--input", str(folder), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "source.spm" in err and "OPUS-MT model directory" in err


def test_fairseq_with_a_missing_checkpoint(tmp_path, toy_model, capsys):
    args = ["fairseq", "--input", str(tmp_path / "nope.pt"), "--dicts", str(toy_model / "fairseq"),
            "--bpe-codes", str(toy_model / "bpe.codes"), "--out", str(tmp_path / "out")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "nope.pt not found" in err and "Traceback" not in err


def test_fairseq_without_dictionaries_or_subword_model(tmp_path, toy_model, capsys):
    checkpoint = str(toy_model / "fairseq" / "checkpoint_best.pt")
    assert main(["fairseq", "--input", checkpoint, "--dicts", str(tmp_path), "--bpe-codes",
                 str(toy_model / "bpe.codes"), "--out", str(tmp_path / "out")]) == 2
    assert "dict.cs.txt not found" in capsys.readouterr().err
    assert main(["fairseq", "--input", checkpoint, "--dicts", str(toy_model / "fairseq"),
                 "--out", str(tmp_path / "out2")]) == 2
    assert "--bpe-codes or --spm" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and not (tmp_path / "out2").exists(), "no folder left by a failed run"


def test_fairseq_moses_steps_follow_the_subword_model(tmp_path, toy_model):
    """Moses (de)tokenisation is on with BPE codes and off with SentencePiece unless asked for."""
    spm_file = tmp_path / "x.spm"
    spm_file.write_bytes(b"")  # only copied: the card is what is checked here
    checkpoint, data = str(toy_model / "fairseq" / "checkpoint_best.pt"), str(toy_model / "fairseq")
    for extra, expected in [([], "none"), (["--moses"], "moses")]:
        out = tmp_path / f"spm-{expected}"
        assert main(["fairseq", "--input", checkpoint, "--dicts", data, "--spm", str(spm_file),
                     "--out", str(out), *extra]) == 0
        card = ModelDir(out).card
        assert card.preprocess.tokenize == expected and card.postprocess.detokenize == expected
    out = tmp_path / "bpe-no-moses"
    assert main(fairseq_args(toy_model, out, "--no-moses")) == 0
    assert ModelDir(out).card.preprocess.tokenize == "none"
