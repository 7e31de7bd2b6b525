"""A flag that sets a config value is defined once (its spelling and its key; help and default
from the schema), and every command starts through the one ``@command`` (parsing and the console log)."""

from __future__ import annotations

import argparse
import ast
import importlib
import logging
import re

import pytest

from configs.schema import ParaNMTConfig
from paranmt.cli.paranmt_command import SUBCOMMANDS
from paranmt.core.command_line import ConfigFlag, add_config_flags, config_values, schema_field
from pipeline.run import CONFIG_FLAGS, build_parser
from tests.support.repo import REPO_ROOT

LIBRARY = ("configs", "paranmt", "filters", "translate", "train_embeddings", "pipeline")


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _config_flag_commands() -> dict[str, tuple[ConfigFlag, ...]]:
    """Every command whose module has a CONFIG_FLAGS table: its module -> the table."""
    modules = {name: importlib.import_module(name) for name, _ in SUBCOMMANDS.values()}
    return {name: module.CONFIG_FLAGS for name, module in modules.items() if hasattr(module, "CONFIG_FLAGS")}


CONFIG_FLAG_COMMANDS = _config_flag_commands()
EVERY_CONFIG_FLAG = [(name, flag) for name, flags in CONFIG_FLAG_COMMANDS.items() for flag in flags]


def test_the_commands_that_set_config_values_have_a_table() -> None:
    assert set(CONFIG_FLAG_COMMANDS) == {"pipeline.run", "train_embeddings.train_command",
                                         "paranmt.cli.translate_command", "paranmt.cli.score_command",
                                         "paranmt.cli.folds_command", "paranmt.cli.evaluate_nmt_command"}


@pytest.mark.parametrize(("name", "flag"), EVERY_CONFIG_FLAG, ids=lambda x: x if isinstance(x, str) else x.flag)
def test_each_config_flag_is_a_described_schema_field_and_its_help_shows_the_schema_default(
        name: str, flag: ConfigFlag) -> None:
    field = schema_field(ParaNMTConfig, flag.key)  # a KeyError for a key the schema does not have
    assert field.description, f"{flag.key}: the help (and the YAML reader) needs the field's description"
    default = field.get_default(call_default_factory=True)
    [action] = [a for a in importlib.import_module(name).build_parser()._actions if flag.flag in a.option_strings]
    assert action.dest == flag.key and action.default is None  # not given: the config file's value stands
    assert field.description in action.help and flag.key in action.help
    if default is True:  # a --no-* flag: what it turns off first, then what the setting does when on
        assert action.help.endswith(f"on by default: {field.description})")
        assert not action.help.startswith(field.description) and flag.off is not None
    elif default is not None:
        assert action.help.endswith(f"default {_shown(default)})")
    if isinstance(default, bool):  # a boolean flag changes the default; the negative ones say so in their name
        assert action.const is (not default) and flag.flag.startswith("--no-") is default


@pytest.mark.parametrize("name", sorted({name for name, _ in SUBCOMMANDS.values()}))
def test_no_help_restates_a_default_the_schema_owns(name: str) -> None:
    """The old way wrote "(default 12)" beside --beam, a second home for the schema's default."""
    tables = CONFIG_FLAG_COMMANDS.get(name, ())
    generated = {flag.flag for flag in tables}
    schema_names = {field for section in ParaNMTConfig.model_fields.values()
                    for field in getattr(section.annotation, "model_fields", ())}
    for action in importlib.import_module(name).build_parser()._actions:
        if not action.option_strings or action.option_strings[0] in generated:
            continue
        assert "." not in action.dest or action.dest == "overrides", action.option_strings  # a key: only the table
        restated = re.search(r"\(default:? -?[0-9]", action.help or "")
        assert not (restated and action.dest in schema_names), (name, action.option_strings, action.help)


def test_run_flags_set_config_values_only_through_the_table() -> None:
    """The old way restated a default by hand ("(default 4)") beside the schema's own."""
    generated = {flag.flag for flag in CONFIG_FLAGS}
    for action in build_parser()._actions:
        if action.option_strings and action.option_strings[0] not in generated:
            assert "." not in action.dest or action.dest == "overrides", action.option_strings


def test_run_help_groups_claim_no_config_key_a_flag_does_not_set() -> None:
    """``--no-dedup`` sets prefilter.dedup and ``--lexicon`` lexicon.enabled: each flag's help names its key."""
    titles = [group.title for group in build_parser()._action_groups]
    assert not [title for title in titles if "<key>" in (title or "")]


def test_a_config_flag_fills_its_key(tmp_path, monkeypatch) -> None:
    from train_embeddings.train_command import CONFIG_FLAGS as TRAIN_FLAGS
    from train_embeddings.train_command import build_parser as train_parser

    monkeypatch.chdir(tmp_path)
    args = train_parser().parse_args(["--input", "pairs", "--out", "o", "--word-vectors", "NONE"])
    values = config_values(args, TRAIN_FLAGS)
    assert values["train.data"] == str(tmp_path / "pairs") and values["train.word_vectors"] == "none"


def test_a_field_of_several_types_needs_the_flags_own_type() -> None:
    with pytest.raises(TypeError, match=r"train\.data"):
        add_config_flags(argparse.ArgumentParser(), ParaNMTConfig, [ConfigFlag("--input", "train.data")])


def test_config_values_are_none_until_given_and_paths_absolute(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    args, _ = build_parser().parse_known_args(["--out", "o", "--model", "m", "--beam", "4", "--no-dedup"])
    values = config_values(args, CONFIG_FLAGS)
    assert values["translate.beam_size"] == 4 and values["prefilter.dedup"] is False
    assert values["translate.model"] == str(tmp_path / "m")
    assert values["pipeline.num_shards"] is None and values["lexicon.enabled"] is None


def test_a_flag_for_a_key_the_schema_lacks_is_an_error() -> None:
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


def test_every_command_loads_its_config_in_the_one_way() -> None:
    """``--config``, then ``--set``, then the command's own flags: one precedence, in
    :func:`configs.command_config` (the command's ``config`` function, which the decorator calls before ``main``).
    evaluate-nmt has no ``--config``: its config is its flags alone."""
    for name, tree in _command_modules().items():
        calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Name)}
        if name != "paranmt.cli.evaluate_nmt_command":
            assert "load_config" not in calls, name


def test_the_console_log_is_set_up_in_one_place() -> None:
    """Eight commands used to call ``logging.basicConfig`` each, in five formats."""
    found = sorted(str(path.relative_to(REPO_ROOT)) for package in LIBRARY for path in (REPO_ROOT / package).rglob(
        "*.py") if "basicConfig" in path.read_text(encoding="utf-8"))
    assert found == ["paranmt/core/command_line.py"]


def test_a_command_logs_in_the_one_format(capsys) -> None:
    from paranmt.cli.sif_command import main

    assert main(["--vectors", "nowhere", "--out", "x"]) == 2
    logging.getLogger("train_embeddings.sif").info("not shown: the command logs from WARNING")
    logging.getLogger("train_embeddings.sif").warning("a warning")
    assert capsys.readouterr().err.splitlines()[-1] == "WARNING train_embeddings.sif: a warning"


@pytest.mark.parametrize("target", ["folder", "file/x.txt"])
def test_any_file_system_error_on_a_named_path_is_one_line(target, tmp_path, capsys):
    """The dispatcher's last line of defence (core.command_line.run_main) for opens the audit did not move
    before the work: the error names the flag and the path."""
    from paranmt.core.command_line import run_main

    d = tmp_path
    (d / "folder").mkdir()
    (d / "file").write_text("user data\n")

    def tool(argv: list[str]) -> int:
        with open(argv[1], "w") as handle:  # what a command's main does with --out
            handle.write("x")
        return 0

    assert run_main(tool, ["--out", str(d / target)]) == 2
    assert capsys.readouterr().err == (f"error: --out {d / 'folder'} is a folder: give a file path\n"
                                       if target == "folder" else
                                       f"error: --out {d / target} cannot be written: {d / 'file'} is a file, "
                                       "not a folder\n")


def test_a_project_error_is_one_line_and_its_exit_status_in_one_place(capsys):
    """Every command's main runs through core.command_line.run_main: a ParanmtError subclass (which keeps its
    ValueError base for library callers) is one ``error:`` line; a failed row accounting exits 1; a plain bug
    keeps its traceback."""

    from configs import ConfigError
    from paranmt.core.command_line import ArgumentParser, command
    from paranmt.core.errors import ParanmtError
    from pipeline.job import AccountingError

    def raising(error: Exception):
        @command(lambda: ArgumentParser(prog="tool"))
        def tool(args: argparse.Namespace) -> int:
            raise error

        return tool

    assert issubclass(ConfigError, ValueError) and issubclass(ConfigError, ParanmtError)
    assert raising(ConfigError("--beam 0: must be positive"))([]) == 2
    assert capsys.readouterr().err == "error: --beam 0: must be positive\n"
    assert raising(AccountingError("read 3 != 2 + 0 + 0", {}))([]) == 1
    assert capsys.readouterr().err == "error: read 3 != 2 + 0 + 0\n"
    assert raising(KeyboardInterrupt())([]) == 130  # a Ctrl-C in any command, e.g. while the config loads
    assert capsys.readouterr().err == "interrupted\n"
    with pytest.raises(ZeroDivisionError):
        raising(ZeroDivisionError("a bug"))([])


def test_a_command_logs_its_own_info_and_only_warnings_of_the_libraries(capsys):
    """The console shows no library's INFO lines: matplotlib's "generated new fontManager" (WORD training),
    skeletoken's and model2vec's (static training)."""
    import logging

    from paranmt.core.command_line import log_to_console

    log_to_console(logging.INFO)
    logging.getLogger("train_embeddings.trainer").info("ours")
    logging.getLogger("matplotlib.font_manager").info("generated new fontManager")
    logging.getLogger("skeletoken.base").info("Changing padding token to existing token '[PAD]'.")
    logging.getLogger("skeletoken.base").warning("a library's warning")
    assert capsys.readouterr().err.splitlines() == ["INFO train_embeddings.trainer: ours",
                                                    "WARNING skeletoken.base: a library's warning"]
