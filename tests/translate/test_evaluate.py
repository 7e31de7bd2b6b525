"""translate.evaluate's input errors (its scoring is exercised on a trained model in test_train.py)."""

from __future__ import annotations

from pathlib import Path

from paranmt.cli.evaluate_nmt_command import main


def _error(capsys, args: list[str]) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_misaligned_or_empty_test_sets_and_missing_models(tmp_path, capsys):
    src, ref = _write(tmp_path / "t.cs", ["Pes.", "Kočka."]), _write(tmp_path / "t.en", ["Dog."])
    err = _error(capsys, ["--model", str(tmp_path), "--cs", str(src), "--en", str(ref)])
    assert "t.cs has 2 lines but" in err and "t.en has 1" in err
    empty_src, empty_ref = _write(tmp_path / "e.cs", []), _write(tmp_path / "e.en", [])
    err = _error(capsys, ["--model", str(tmp_path), "--cs", str(empty_src), "--en", str(empty_ref)])
    assert "e.cs is empty" in err
    ref = _write(tmp_path / "t.en", ["Dog.", "Cat."])
    err = _error(capsys, ["--model", str(tmp_path / "nope"), "--cs", str(src), "--en", str(ref)])
    assert "nope does not exist" in err
    err = _error(capsys, ["--model", str(tmp_path), "--cs", str(tmp_path / "missing.cs"), "--en", str(ref)])
    assert "missing.cs: no such file" in err


def test_the_model_card_is_written_only_when_asked(tmp_path, capsys):
    """Evaluating a model leaves its card as it is unless ``--update-card`` is given."""
    import shutil

    from translate.card import CARD_FILE, DEFAULT_MODEL_DIR

    model = tmp_path / "model"
    shutil.copytree(DEFAULT_MODEL_DIR, model)
    before = (model / CARD_FILE).read_text(encoding="utf-8")
    src = _write(tmp_path / "t.cs", ["Dobrý den.", "Pes běží parkem."])
    ref = _write(tmp_path / "t.en", ["Hello.", "A dog runs through the park."])
    args = ["--model", str(model), "--cs", str(src), "--en", str(ref), "--threads", "1", "--beam", "2"]
    assert main(args) == 0
    assert "left unchanged (--update-card" in capsys.readouterr().out
    assert (model / CARD_FILE).read_text(encoding="utf-8") == before
    assert main([*args, "--update-card"]) == 0
    assert "bleu_t:" in (model / CARD_FILE).read_text(encoding="utf-8")
