"""``paranmt evaluate``: its flags, the argument checks before any model loads, and whole runs on a hand-made STS
folder (tests/support/sts_toy.py) with the model loader replaced by a toy encoder (STS evaluation itself:
tests/train_embeddings/evaluation/sts/)."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

from paranmt.cli import evaluate_command
from paranmt.cli.paranmt_command import main
from paranmt.core.correlation import pearson
from tests.support.sts_toy import R_FIRST, VECTORS, ToyEncoder, write, write_sts2016_release
from train_embeddings.models import model_io  # evaluate loads models through it (replaced here)


def test_word_frequencies_is_the_one_name():
    from paranmt.cli.evaluate_command import build_parser

    parser = build_parser()
    assert parser.parse_args(["--glove", "--word-frequencies", "f"]).word_frequencies == Path("f")
    with pytest.raises(SystemExit):
        parser.parse_args(["--glove", "--word-counts", "f"])


def test_nothing_to_evaluate_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == ("error: nothing to evaluate: give --model DIR, --glove, --sif and/or --minilm "
                                       "(see paranmt evaluate --help)\n")


def test_cli_with_a_saved_model_and_json(toy_root: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    loaded: list[Path] = []

    def load_model(directory):
        loaded.append(Path(directory))
        return types.SimpleNamespace(encode=ToyEncoder())

    monkeypatch.setattr(model_io, "load_model", load_model)
    model_dir = tmp_path / "word-model"
    model_dir.mkdir()
    out = tmp_path / "out" / "sts.json"
    rc = evaluate_command.main(["--model", str(model_dir), "--sts-dir", str(toy_root), "--years", "2012",
                                "--json", str(out)])
    assert rc == 0 and loaded == [model_dir]
    printed = capsys.readouterr().out
    assert "| 2012 | first | 4 |" in printed and "STS-B test without STS2017" in printed
    payload = json.loads(out.read_text())
    assert payload["reports"]["word-model"]["years"]["2012"]["mean_pearson"] == pytest.approx(
        (R_FIRST + pearson([0.6, 1, 0], [2, 5, 0])) / 2)
    assert evaluate_command.main(["--model", str(model_dir), "--sts-dir", str(tmp_path / "absent")]) == 2
    with pytest.raises(SystemExit):
        evaluate_command.main(["--years", "2012"])  # nothing to evaluate


def test_cli_reads_the_2016_release(toy_root: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    release = write_sts2016_release(tmp_path / "release")
    monkeypatch.setattr(model_io, "load_model", lambda directory: types.SimpleNamespace(encode=ToyEncoder()))
    (tmp_path / "m").mkdir()
    assert evaluate_command.main(["--model", str(tmp_path / "m"), "--sts-dir", str(toy_root), "--years", "2012",
                     "--year-dir", f"2016={release}"]) == 0
    printed = capsys.readouterr().out
    assert "| 2016 | answer-answer | 3 |" in printed and "MTEB STS16: Spearman" in printed
    with pytest.raises(SystemExit):
        evaluate_command.main(["--model", str(tmp_path / "m"), "--year-dir", "2016"])  # not YEAR=DIR


def test_cli_speed_times_unseen_sentences(toy_root: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    encoder = ToyEncoder()
    monkeypatch.setattr(model_io, "load_model", lambda directory: types.SimpleNamespace(encode=encoder))
    (tmp_path / "m").mkdir()
    lines = write(tmp_path / "timing.txt", "".join(f"unseen {i}\n" for i in range(80)) + "\n")
    for i in range(80):
        monkeypatch.setitem(VECTORS, f"unseen {i}", [1.0, float(i)])
    out = tmp_path / "r.json"
    assert evaluate_command.main(["--model", str(tmp_path / "m"), "--sts-dir", str(toy_root), "--speed", "10",
                     "--speed-file", str(lines), "--json", str(out)]) == 0
    timed = [s for call in encoder.calls for s in call if s.startswith("unseen")]
    assert timed == [f"unseen {i}" for i in range(74)]  # 64 to warm up, then the 10 timed
    assert "| sentences/s (1 CPU thread) |" in capsys.readouterr().out
    assert json.loads(out.read_text())["sentences_per_second"]["m"] > 0
    assert evaluate_command.main(["--model", str(tmp_path / "m"), "--sts-dir", str(toy_root), "--speed", "100",
                     "--speed-file", str(lines)]) == 2  # not enough sentences: one error line
    assert "only 80 unseen sentences" in capsys.readouterr().err
