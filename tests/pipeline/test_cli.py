"""``paranmt``: every tool behind one command, each usage line naming it as called, one flag name per concept."""

from __future__ import annotations

import pytest

from pipeline.paranmt_command import SUBCOMMANDS, main


def test_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert all(f"  {name} " in text for name in SUBCOMMANDS)
    assert main([]) == 2 and main(["bogus"]) == 2
    assert "unknown subcommand 'bogus'" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_each_subcommand_names_itself_and_spells_outputs_out(name, capsys):
    args = [name, "build", "--help"] if name == "lexicon" else [name, "marian", "--help"] if name == "convert" \
        else [name, "--help"]
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: paranmt {name}")
    assert "python -m" not in text.split("\n")[0]
    assert "--output" not in text and "--data " not in text  # old spellings work but are not shown
    if name not in ("evaluate",):  # evaluate writes only --json
        assert "--out" in text


def test_old_spellings_still_work(tmp_path):
    from configs.command_line import ArgumentParser

    parser = ArgumentParser(prog="x")
    parser.add_renamed("--out", "--output", required=True)
    assert parser.parse_args(["--output", "a"]).out == parser.parse_args(["--out", "a"]).out == "a"
    with pytest.raises(SystemExit):
        parser.parse_args([])
