"""Issue 39 item 5: a flag that sets a config value is defined once (its spelling and its key; help and default
from the schema), and every command starts through the one ``@command`` (parsing and the console log)."""

from __future__ import annotations

import ast
import logging

import pytest

from cli.paranmt_command import SUBCOMMANDS
from configs.schema import ParaNMTConfig
from core.command_line import ConfigFlag, add_config_flags, config_values, schema_field
from pipeline.run import CONFIG_FLAGS, build_parser
from tests.conftest import REPO_ROOT

LIBRARY = ("configs", "core", "filters", "translate", "train_embeddings", "pipeline", "cli")


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("flag", CONFIG_FLAGS, ids=lambda flag: flag.flag)
def test_each_run_config_flag_is_a_schema_field_and_its_help_shows_the_schema_default(flag: ConfigFlag) -> None:
    field = schema_field(ParaNMTConfig, flag.key)  # a KeyError for a key the schema does not have
    default = field.get_default(call_default_factory=True)
    [action] = [a for a in build_parser()._actions if flag.flag in a.option_strings]
    assert action.dest == flag.key
    assert (field.description or "") in action.help and flag.key in action.help
    if default is not None:
        assert f"default {_shown(default)}" in action.help
    if isinstance(default, bool):  # a boolean flag changes the default; the negative ones say so in their name
        assert action.const is (not default) and flag.flag.startswith("--no-") is default


def test_run_flags_set_config_values_only_through_the_table() -> None:
    """The old way restated a default by hand ("(default 4)") beside the schema's own."""
    generated = {flag.flag for flag in CONFIG_FLAGS}
    for action in build_parser()._actions:
        if action.option_strings and action.option_strings[0] not in generated:
            assert "." not in action.dest or action.dest == "overrides", action.option_strings


def test_config_values_are_none_until_given_and_paths_absolute(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    args, _ = build_parser().parse_known_args(["--out", "o", "--model", "m", "--beam", "4", "--no-dedup"])
    values = config_values(args, CONFIG_FLAGS)
    assert values["translate.beam_size"] == 4 and values["prefilter.dedup"] is False
    assert values["translate.model"] == str(tmp_path / "m")
    assert values["pipeline.num_shards"] is None and values["lexicon.enabled"] is None


def test_a_flag_for_a_key_the_schema_lacks_is_an_error() -> None:
    import argparse

    with pytest.raises(KeyError, match=r"pipeline\.no_such_key"):
        add_config_flags(argparse.ArgumentParser(), ParaNMTConfig, [ConfigFlag("--x", "pipeline.no_such_key")])


def _command_modules() -> dict[str, ast.Module]:
    modules = {name for name, _ in SUBCOMMANDS.values()}
    return {name: ast.parse((REPO_ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
            for name in modules}


def test_every_command_starts_through_the_one_command_decorator() -> None:
    """Parsing and the console log are the decorator's: no command parses its own arguments."""
    for name, tree in _command_modules().items():
        [main] = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"]
        decorators = [d.func.id for d in main.decorator_list if isinstance(d, ast.Call)
                      and isinstance(d.func, ast.Name)]
        assert decorators == ["command"], name
        calls = {node.func.attr for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}
        assert not calls & {"parse_args", "parse_known_args", "basicConfig"}, name


def test_the_console_log_is_set_up_in_one_place() -> None:
    """Eight commands used to call ``logging.basicConfig`` each, in five formats."""
    found = sorted(str(path.relative_to(REPO_ROOT)) for package in LIBRARY for path in (REPO_ROOT / package).rglob(
        "*.py") if "basicConfig" in path.read_text(encoding="utf-8"))
    assert found == ["core/command_line.py"]


def test_a_command_logs_in_the_one_format(capsys) -> None:
    from cli.sif_command import main

    assert main(["--vectors", "nowhere", "--out", "x"]) == 2
    logging.getLogger("train_embeddings.sif").info("not shown: the command logs from WARNING")
    logging.getLogger("train_embeddings.sif").warning("a warning")
    assert capsys.readouterr().err.splitlines()[-1] == "WARNING train_embeddings.sif: a warning"
