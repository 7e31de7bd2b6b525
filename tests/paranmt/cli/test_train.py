"""``paranmt train``: its argument and config errors, before any work (training itself: tests/train_embeddings)."""

from __future__ import annotations

import pytest

from paranmt.cli.paranmt_command import main


def test_train_flag_errors_are_one_line_and_a_failed_train_leaves_no_out(tmp_path, capsys):
    out = tmp_path / "runs" / "emb"
    assert main(["train", "--input", str(tmp_path / "none.parquet"), "--model", "word", "--out", str(out),
                 "--epochs", "-1"]) == 2
    assert capsys.readouterr().err == \
        "error: invalid --epochs -1: Input should be greater than or equal to 1 (train.epochs)\n"
    assert main(["train", "--input", str(tmp_path / "none.parquet"), "--model", "word", "--out", str(out),
                 "--no-eval"]) == 2  # without the STS files, the dev evaluation's check would speak first
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: training data {tmp_path / 'none.parquet'} does not exist")
    assert not (tmp_path / "runs").exists()  # it used to leave an empty --out behind


def test_input_is_shown_as_required_and_may_come_from_the_config(tmp_path, capsys):
    """The usage shows ``--input INPUT`` as required, not ``[--input INPUT]``."""
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    usage = " ".join(capsys.readouterr().out.split("\n\n")[0].split())
    assert " --input INPUT " in usage and "[--input INPUT]" not in usage
    assert main(["train", "--model", "word", "--out", str(tmp_path / "run"), "--no-eval"]) == 2
    assert capsys.readouterr().err == ("error: the following arguments are required: --input (or train.data in the "
                                       "--config)\n")
    config = tmp_path / "c.yaml"
    config.write_text(f"train:\n  data: {tmp_path / 'none.parquet'}\n", encoding="utf-8")
    assert main(["train", "--config", str(config), "--model", "word", "--out", str(tmp_path / "run"),
                 "--no-eval"]) == 2
    assert "training data" in capsys.readouterr().err  # got past the check: the config gave the data
