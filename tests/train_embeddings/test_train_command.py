"""``python -m train_embeddings`` is ``paranmt train``: the same help and the same one-line errors, each in a
process of its own, given before torch is imported (a clone without ``../shared`` hears of its missing STS files at
once, not after 20-27 s of imports)."""

from __future__ import annotations

import pytest

from tests.support.processes import run_python_imports

PARANMT_TRAIN = ("-m", "paranmt", "train")  # what the paranmt console script runs
PYTHON_M = ("-m", "train_embeddings")



def test_the_same_help_before_torch_loads(tmp_path):
    (paranmt, _), (python_m, imported) = (run_python_imports(*PARANMT_TRAIN, "--help", cwd=tmp_path),
                                          run_python_imports(*PYTHON_M, "--help", cwd=tmp_path))
    assert python_m.returncode == paranmt.returncode == 0
    assert python_m.stdout == paranmt.stdout and python_m.stdout.startswith("usage: paranmt train ")
    assert "One update step" in python_m.stdout  # the description: what a run does and writes
    assert imported.isdisjoint({"apache_beam", "torch"})


@pytest.mark.parametrize("args, line", [
    ([], "error: the dev evaluation needs the STS Benchmark files ("),
    (["--epochs", "many"], "error: argument --epochs: invalid int value: 'many' (see paranmt train --help)"),
])
def test_the_same_one_line_errors_before_torch_loads(args, line, tmp_path):
    """The STS files of the default dev evaluation, missing (a clone without ../shared), and a flag that does not
    parse."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("A man plays.\tSomeone plays.\t0.9\n", encoding="utf-8")
    command = ["--input", str(pairs), "--model", "word", "--out", str(tmp_path / "run"), *args]
    env = {"PARANMT_STS_DIR": str(tmp_path / "no-sts")}
    (paranmt, _), (python_m, imported) = (run_python_imports(*PARANMT_TRAIN, *command, cwd=tmp_path, env=env),
                                          run_python_imports(*PYTHON_M, *command, cwd=tmp_path, env=env))
    assert python_m.returncode == paranmt.returncode == 2
    assert python_m.stderr == paranmt.stderr and python_m.stderr.startswith(line)
    assert python_m.stderr.count("\n") == 1 and python_m.stdout == ""
    assert imported.isdisjoint({"apache_beam", "torch"})
    assert not (tmp_path / "run").exists()
