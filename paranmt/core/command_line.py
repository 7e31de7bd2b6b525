"""What every command line of the project shares: one spelling per concept, the name it is called by, and the one
mapping of a problem the user can fix to an ``error:`` line. It sits in ``paranmt.core`` because the commands live in
two layers: ``paranmt/cli/`` (``paranmt`` and most subcommands) and the two packages that run as ``python -m`` too
(:mod:`pipeline.run`, :mod:`train_embeddings.train_command`), which must not import ``paranmt.cli``.

* ``--out`` names what a command writes (a file or a folder) and ``--input`` what it reads, in every tool; a flag
  the command cannot run without is shown as required in its usage line.
* A command's usage line names it as it is called: ``paranmt run`` (also when started as ``python -m
  pipeline.run``: one command, one help).
* A problem the user can fix is one ``error:`` line and exit status 2, never a traceback, decided here once
  (:func:`run_main`): any :class:`~core.errors.ParanmtError` (each keeps its own ``exit_status``) and a
  file-system error on a path the user named.
* Every command starts the same way, :func:`command`: its parser reads the arguments, the console log is set up
  (one format), its config is loaded (:func:`configs.command_config`: ``--config``, then ``--set``, then its own
  config flags), then the command runs inside :func:`run_main`.
* A command started as a process (``paranmt``, ``python -m paranmt``, ``python -m pipeline.run``, ``python -m
  train_embeddings``) ends through :func:`exit_process`: Python's own exit steps, then no interpreter teardown.
* A flag that sets a config value is one :class:`ConfigFlag` (its spelling and the dotted key it sets); its type,
  choices, help and shown default are the schema field's (:func:`add_config_flags`).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import functools
import importlib.util
import logging
import os
import re
import sys
import threading
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from paranmt.core.errors import ParanmtError
from paranmt.core.hf_imports import torchaudio_mismatch
from paranmt.core.import_path import OWN_PACKAGES

if TYPE_CHECKING:  # the config schema's classes, passed in by the commands (configs.schema.ParaNMTConfig)
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

__all__ = ["BAR_SWITCHES", "LOG_FORMAT", "ArgumentParser", "ConfigFlag", "UsageError", "add_config_arguments",
           "add_config_flags", "bars_only_on_a_terminal", "check_required", "command", "config_values",
           "exit_process", "flag_names", "install_warning", "log_to_console", "not_a_user_error_traceback",
           "os_error_line", "plain_text", "read_only_line", "run_main", "run_program", "schema_field",
           "shadowing_line"]

#: The console log of every command: the level first (a test or a user greps ``WARNING``), then the logger.
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"

# Sphinx/reST markup of the docstrings used as help text -> plain text: :class:`~a.b.C` -> C, :func:`f` -> f,
# ``code`` -> code, **bold** -> bold.
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(~?)([^`<]+?)(?:\s*<[^>]+>)?`")
_LITERAL = re.compile(r"``([^`]+)``")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def plain_text(text: str) -> str:
    """Help text without reST markup (roles, literals, bold)."""
    text = _ROLE.sub(lambda m: m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2), text)
    return _BOLD.sub(r"\1", _LITERAL.sub(r"\1", text))


def add_config_arguments(parser: argparse.ArgumentParser, example: str) -> None:
    """The ``--config`` and ``--set`` options every command shares (``args.config``, ``args.overrides``)."""
    parser.add_argument("--config", help="YAML config (a path or a bundled name such as 'sample')")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="SECTION.KEY=VALUE",
                        help=f"override a config value, e.g. --set {example}")


@dataclass(frozen=True)
class ConfigFlag:
    """A flag that sets one config value: its spelling (``--beam``) and the dotted key it sets
    (``translate.beam_size``). Its type, choices, help and the default it shows are the schema field's
    (:func:`add_config_flags`); ``choices`` only narrows a field that also takes other values (a backend by name,
    where the config also takes an import path); ``type`` reads the value of a field of several types (a path or a
    URL)."""

    flag: str
    key: str
    choices: tuple[str, ...] | None = None
    type: Callable[[str], Any] | None = None  # Any: the field's value
    #: The run needs a value: from the flag, or from the config file (checked by :func:`check_required` once the
    #: config is loaded); the usage shows the flag as required.
    required: bool = False
    #: A ``--no-*`` flag (a setting that is on by default): what giving the flag does, in words ("keep exact
    #: duplicates"); the help then says it and what the setting does when on.
    off: str | None = None


def schema_field(schema: type[BaseModel], key: str) -> FieldInfo:
    """The field a dotted key names (``translate.beam_size``): a ``KeyError`` naming the key when there is none."""
    *sections, name = key.split(".")
    model = schema
    for section in sections:
        model = model.model_fields[section].annotation  # a section is a model of its own
    if name not in model.model_fields:
        raise KeyError(f"{key} is no field of {schema.__name__}")
    return model.model_fields[name]


def _value_type(annotation: Any) -> Any:  # Any: a type annotation (int, Path | None, Literal[...])
    """The annotation without ``None``: ``int | None`` -> ``int``."""
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        rest = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def _shown(value: object) -> str:
    """A default as the YAML config spells it (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


# Any: a parser or one of its argument groups (argparse has no public name for both)
def add_config_flags(group: Any, schema: type[BaseModel], flags: Sequence[ConfigFlag]) -> None:
    """Each flag, built from its schema field: the value's type (``Literal`` values as choices), the field's
    description as help with the key and the default it changes; a boolean flag sets the opposite of the field's
    default (``--no-dedup`` sets ``prefilter.dedup: false``). A flag not given leaves ``None`` under its key
    (``args.<key>``, read by :func:`config_values`), so the config file's value stands."""
    for item in flags:
        field = schema_field(schema, item.key)
        value_type = item.type or _value_type(field.annotation)
        if typing.get_origin(value_type) in (types.UnionType, typing.Union):
            raise TypeError(f"{item.key} takes several types ({value_type}): give its ConfigFlag a type")
        description = (field.description or "").replace("%", "%%")  # argparse %-formats help
        default = field.get_default(call_default_factory=True)
        kwargs: dict[str, Any]  # Any: add_argument's keyword arguments
        if value_type is bool and default:  # a --no-* flag: its help says what it turns off
            off = item.off or f"turn {item.key} off"
            kwargs = {"action": "store_false",
                      "help": f"{off[:1].upper()}{off[1:]} (sets {item.key}: false; on by default: {description})"}
        elif value_type is bool:
            kwargs = {"action": "store_true",
                      "help": f"{description} (sets {item.key}: true; default false)".strip()}
        else:
            literal = typing.get_args(value_type) if typing.get_origin(value_type) is typing.Literal else ()
            choices = item.choices or literal or None
            shown = f"; default {_shown(default)}" if default is not None else ""
            kwargs = {"type": None if literal else value_type, "choices": choices,
                      "metavar": None if choices else item.flag.lstrip("-").replace("-", "_").upper(),
                      "help": f"{description} ({item.key}{shown})".strip()}
        action = group.add_argument(item.flag, dest=item.key, default=None, **kwargs)
        action.shown_required = item.required  # type: ignore[attr-defined]  # read by ArgumentParser's usage


def config_values(args: argparse.Namespace, flags: Sequence[ConfigFlag]) -> dict[str, Any]:  # Any: field values
    """Dotted key -> the value its flag gave (``None``: not given), for ``load_config(values=...)``; a path made
    absolute here, against the folder the user typed it in."""
    values = {item.key: getattr(args, item.key) for item in flags}
    return {key: str(value.resolve()) if isinstance(value, Path) else value for key, value in values.items()}


def check_required(config: BaseModel, flags: Sequence[ConfigFlag]) -> None:
    """A :class:`UsageError` naming each required flag whose key has no value in the loaded config (neither the
    flag nor the config file gave one)."""
    missing = []
    for item in flags:
        value: Any = config  # Any: a section, then the field's value
        for part in item.key.split("."):
            value = getattr(value, part)
        if item.required and value is None:
            missing.append(f"{item.flag} (or {item.key} in the --config)")
    if missing:
        raise UsageError(f"the following arguments are required: {', '.join(missing)}")


def flag_names(flags: Sequence[ConfigFlag]) -> dict[str, str]:
    """Dotted key -> its flag, for ``load_config(flags=...)``: an invalid value is reported by the flag that gave it."""
    return {item.key: item.flag for item in flags}


class UsageError(ParanmtError, ValueError):
    """Flags that parse one by one but not together (``--cs`` without its ``--en``): one line, exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the project's help (plain text, a config flag the run needs shown as
    required) and its one-line error."""

    def format_help(self) -> str:
        """Plain text: a module docstring used as the description loses its reST markup."""
        with self._required_shown():
            return plain_text(super().format_help())

    def format_usage(self) -> str:
        with self._required_shown():
            return super().format_usage()

    @contextlib.contextmanager
    def _required_shown(self) -> Iterator[None]:
        """A config flag the run needs (:attr:`ConfigFlag.required`) shows as required, although the parser lets
        the config file give it instead."""
        shown = [action for action in self._actions if getattr(action, "shown_required", False)]
        for action in shown:
            action.required = True
        try:
            yield
        finally:
            for action in shown:
                action.required = False

    def error(self, message: str) -> NoReturn:
        """A bad argument is one line (the usage is what ``--help`` is for), exit status 2."""
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def _flag_naming(path: str, argv: Sequence[str]) -> tuple[str, str] | None:
    """``(flag, value)`` of the argument that names ``path``, a folder above it or a path below it."""
    target = Path(os.path.abspath(path))
    for k, token in enumerate(argv):
        if not token.startswith("-"):
            continue
        flag, sep, value = token.partition("=")
        if not sep:
            if k + 1 >= len(argv):
                continue
            value = argv[k + 1]
        given = Path(os.path.abspath(value))
        if given == target or given in target.parents or target in given.parents:
            return flag, value
    return None


def read_only_line(who: str) -> str:
    """An output (``--out PATH``) on a read-only file system: the cause and the fix, in one line."""
    return f"{who} is on a read-only file system: choose a path on a disk you can write"


def os_error_line(error: OSError, argv: Sequence[str]) -> str:
    """A failed open/mkdir/rename on a path the user gave, as one line naming the flag, the path and the fix."""
    path = str(error.filename2 if error.filename2 is not None and isinstance(error, IsADirectoryError)
               else error.filename)
    named = _flag_naming(path, argv)
    flag, given = named if named else ("", path)
    who = f"{flag} {given}".strip()
    if isinstance(error, IsADirectoryError):
        return f"{who} is a folder: give a file path"
    if isinstance(error, NotADirectoryError | FileExistsError):
        blocker = next((a for a in (Path(path), *Path(path).parents) if a.is_file()), None)
        if blocker is not None:
            return f"{who} cannot be written: {blocker} is a file, not a folder"
        return f"{who} already exists: choose another path"
    if error.errno == errno.EROFS:
        return read_only_line(who)
    if isinstance(error, PermissionError):
        return f"{who}: permission denied on {path}: choose a path you can write (or read)"
    if isinstance(error, FileNotFoundError):
        return f"{who} does not exist" if given == path else f"{who}: {path} does not exist"
    return f"{who}: {error.strerror or error}"


def shadowing_line(error: ModuleNotFoundError) -> str | None:
    """A module of the user's named like one of paranmt's packages (``filters.py`` beside a plug-in) and earlier on
    the Python path hides that package, and the first ``import filters.plugins`` fails: one line naming the file and
    the fix instead of the traceback. None for any other missing module."""
    top = (error.name or "").partition(".")[0]
    if not top or "." not in (error.name or ""):
        return None
    try:  # a failed import leaves no module behind: ask the path what the name is
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.submodule_search_locations is not None:  # absent, or a package: not a shadowing module
        return None
    where = spec.origin or top
    return (f"{where} hides paranmt's own {top} package (it comes first on the Python path): rename your module, "
            f"e.g. to my_{top}.py, and name its plug-ins by the new name (my_{top}:YourRule)")


def not_a_user_error_traceback(record: logging.LogRecord) -> bool:
    """A log filter for a command's handler: a :class:`ParanmtError` raised inside a Beam step (a problem the user
    can fix, found as the job runs) is logged by Beam on the way up (as the record's exception, formatted into the
    message while it is handled, or as an argument), and :func:`run_main` then prints it as one ``error:`` line;
    Beam's records would only repeat it, with tracebacks."""
    if not record.name.startswith("apache_beam."):
        return True
    handled = record.exc_info[1] if record.exc_info else sys.exc_info()[1]  # the filter runs in the logging thread
    args = record.args if isinstance(record.args, tuple) else ()
    return not any(isinstance(error, ParanmtError) for error in (handled, *args))


def run_main(main: Callable[[list[str]], int], argv: Sequence[str] | None = None) -> int:
    """Run a command's ``main(argv)``: the one place where a problem the user can fix becomes one ``error:`` line
    and an exit status instead of a traceback -- any :class:`ParanmtError` (its ``exit_status``, 2 unless the
    class says otherwise), a module of the user's hiding one of paranmt's packages (:func:`shadowing_line`, 2) and a
    file-system error on a named path (a folder given as a file, a path below a file,
    no permission: 2); a Ctrl-C outside a command's own handling (``paranmt run`` keeps its cache and says so) is
    one ``interrupted`` line and 130, the shell's status for SIGINT."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return main(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except ParanmtError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_status
    except ModuleNotFoundError as error:  # a command imports its heavy modules once its arguments are checked
        line = shadowing_line(error)
        if line is None:
            raise
        print(f"error: {line}", file=sys.stderr)
        return 2
    except OSError as error:
        if error.filename is None:  # not about a path (a socket, a device): a real failure, keep its traceback
            raise
        print(f"error: {os_error_line(error, args)}", file=sys.stderr)
        return 2


def command(build_parser: Callable[[], argparse.ArgumentParser], *, log_level: int = logging.WARNING,
            passthrough: str | None = None, pass_parser: bool = False,
            config: Callable[[str | None, list[str], Sequence[ConfigFlag], dict[str, Any]], BaseModel] | None = None,
            config_flags: Sequence[ConfigFlag] = (),
            ) -> Callable[[Callable[..., int]], Callable[[Sequence[str] | None], int]]:
    """The one way a command starts, what ``paranmt SUBCOMMAND``, ``python -m`` and a test calling ``main([...])``
    all get: inside :func:`run_main`, ``build_parser()`` reads the arguments (a bad one: one ``error:`` line, exit
    status 2), the console log is set up (:func:`log_to_console`: the project's records from ``log_level`` up, from
    INFO with the command's ``--verbose``), then the decorated ``main(args)`` runs.

    ``passthrough``: arguments the parser does not know are kept as ``args.<passthrough>`` (``paranmt run``'s Beam
    options) instead of being an error. ``pass_parser``: ``main(args, parser)``, for checks that fail as the
    parser's own errors do. ``config``: the command runs with a config, ``main(args, config)``, loaded by this
    function (:func:`configs.command_config`, or the command's own around it) from ``--config``, ``--set`` and the
    values of ``config_flags`` (:func:`config_values`)."""

    def decorate(main: Callable[..., int]) -> Callable[[Sequence[str] | None], int]:
        def start(argv: list[str]) -> int:
            parser = build_parser()
            if passthrough is None:
                args = parser.parse_args(argv)
            else:
                args, rest = parser.parse_known_args(argv)
                setattr(args, passthrough, rest)
            log_to_console(logging.INFO if getattr(args, "verbose", False) else log_level)
            bars_only_on_a_terminal()
            if config is not None:
                return main(args, config(args.config, args.overrides, config_flags, config_values(args, config_flags)))
            return main(args, parser) if pass_parser else main(args)

        @functools.wraps(main)
        def wrapped(argv: Sequence[str] | None = None) -> int:
            return run_main(start, argv)

        return wrapped

    return decorate


#: The switches of the progress bars of the libraries a command loads (tqdm's own, huggingface_hub's and through
#: it transformers' and sentence-transformers'), read when each library is imported.
BAR_SWITCHES = ("TQDM_DISABLE", "HF_HUB_DISABLE_PROGRESS_BARS")


def bars_only_on_a_terminal() -> None:
    """Where stderr is not a terminal (a log file, a pipe, CI), no progress bar redraws itself with carriage
    returns: the libraries' bars are switched off before they load (a switch the user set stands), and the
    project's own tqdm bars pass ``disable=None`` (tqdm's: off where the stream is not a terminal)."""
    try:
        terminal = sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stderr
        terminal = False
    if not terminal:
        for switch in BAR_SWITCHES:
            os.environ.setdefault(switch, "1")


def install_warning() -> None:
    """An install other than the README's command (a torchaudio built for another torch): the one-line fix on
    stderr, once per command, whichever way the command was started."""
    problem = torchaudio_mismatch()
    if problem is not None:  # in the console log's format, as every other warning (the command sets it up again)
        log_to_console(logging.WARNING)
        logging.getLogger(__name__).warning("%s", problem)


def run_program(main: Callable[[], int]) -> NoReturn:
    """A command started as ``python -m PACKAGE``: what ``paranmt SUBCOMMAND`` does around it (the install
    warning; ``main`` is a :func:`command`, so errors and exit statuses are the same), then exit with its status."""
    install_warning()
    exit_process(main())


def exit_process(status: int) -> NoReturn:
    """End the process with ``status`` once its command has returned: Python's own exit steps in its order -- wait
    for the threads that are not daemons (an executor's workers finish their jobs), the ``atexit`` hooks (logging,
    multiprocessing's children, a worker's last progress counts), the flush of stdout and stderr -- then
    ``os._exit``, without the interpreter's teardown. In that teardown the C++ thread pools of native libraries
    (Arrow's, apache/arrow#34314) can meet a joinable thread and abort a finished run with SIGABRT ("terminate
    called without an active exception", status -6), so a command whose work was done and written would not exit 0.
    Only for a process's entry point: a test that calls ``main([...])`` goes on running."""
    threading._shutdown()  # Python's own first exit step: joins non-daemon threads, executors
    atexit._run_exitfuncs()  # the second: runs and clears the atexit hooks
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe must not keep the process in teardown
            stream.flush()
    os._exit(status)


def _ours_or_a_warning(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.WARNING or record.name.partition(".")[0] in OWN_PACKAGES


def _not_beam_apitools_notice(record: logging.LogRecord) -> bool:
    # Beam without its [gcp] extra logs this warning on the root logger when it is first imported; it says nothing
    # about a paranmt command.
    return not record.getMessage().startswith("apitools not found, and bigquery client libraries")


def log_to_console(level: int) -> None:
    """stderr gets the project's records from ``level`` up and every other logger's from WARNING up, in
    :data:`LOG_FORMAT`: a user sees what paranmt does, not the INFO chatter of the libraries it calls (skeletoken's
    "Changing padding token", model2vec's PCA report, matplotlib's "generated new fontManager"), nor Beam's copies
    of an error the command reports in one line (:func:`not_a_user_error_traceback`), nor the "apitools not found"
    warning Beam logs when a command first imports it. Filters on the console handler, not logger levels: the next
    command's ``basicConfig(force=True)`` replaces it, so nothing carries over to another command run in the same
    process (a test session)."""
    logging.basicConfig(level=level, format=LOG_FORMAT, force=True)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_ours_or_a_warning)
        handler.addFilter(not_a_user_error_traceback)
        handler.addFilter(_not_beam_apitools_notice)
