"""``paranmt convert``: one subcommand per format, each one entry of CONVERTERS; what a converter writes is
checked in tests/translate/test_convert.py, and a failed conversion is one line and status 2."""

from __future__ import annotations

import pytest

from paranmt.cli.convert_command import CONVERTERS, build_parser, main


@pytest.mark.parametrize("command", sorted(CONVERTERS))
def test_every_converter_reads_its_input_from_input(command, capsys):
    """Each format is one subcommand and one entry of CONVERTERS; each reads --input and writes --out, both shown as
    required."""
    extra = ["--dicts", "d"] if command == "fairseq" else []
    assert str(build_parser().parse_args([command, "--input", "m", "--out", "o", *extra]).input) == "m"
    with pytest.raises(SystemExit):
        main([command, "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert " --input " in usage and "[--input" not in usage and " --out OUT" in usage and "[--out" not in usage
    with pytest.raises(SystemExit) as exit_:
        main([command, "--out", "o", *extra])
    assert exit_.value.code == 2 and "required: --input" in capsys.readouterr().err


def test_a_failed_conversion_is_one_error_line_and_leaves_no_folder(tmp_path, capsys):
    assert main(["card", "--input", str(tmp_path / "absent"), "--spm", "x.model", "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {tmp_path / 'absent' / 'model.bin'} not found\n"
    (tmp_path / "ct2").mkdir()
    (tmp_path / "ct2" / "model.bin").write_bytes(b"")
    assert main(["card", "--input", str(tmp_path / "ct2"), "--out", str(tmp_path / "m")]) == 2
    assert "give the subword model" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_the_subcommands_are_the_converters():
    subcommands = build_parser()._subparsers._group_actions[0].choices
    assert sorted(subcommands) == sorted(CONVERTERS) == ["argos", "card", "fairseq", "hf-marian", "marian"]
