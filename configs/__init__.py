"""Configuration: YAML files in this folder, typed and validated by :mod:`configs.schema`.

Precedence (lowest to highest): built-in defaults < the config a YAML file names as its ``base:`` < the YAML file
< ``--set section.key=value`` overrides < the dedicated CLI flags of a command (e.g. ``--beam``).
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel, ValidationError

from configs.schema import ParaNMTConfig, TranslateConfig
from paranmt.core.command_line import ConfigFlag, check_required, flag_names
from paranmt.core.errors import ParanmtError

CONFIG_DIR = Path(__file__).resolve().parent
#: The top-level YAML key naming the config a file builds on (``base: sample``).
BASE_KEY = "base"

__all__ = ["CONFIG_DIR", "ConfigError", "ParaNMTConfig", "TranslateConfig", "command_config", "load_config",
           "parse_override"]


class ConfigError(ParanmtError, ValueError):
    """A configuration value is missing, unknown or invalid; the message names the field and the value."""


def _section_keys(loc: tuple[str | int, ...]) -> tuple[str, list[str]] | None:
    """The section a key path ends in (``("translate", "beem_size")`` -> ``"translate"``) and that section's keys;
    None where the path does not lead through config sections (a dict's own keys, a plug-in's parameters)."""
    model: Any = ParaNMTConfig  # Any: a section's model class
    names: list[str] = []
    parts = list(loc[:-1])
    while parts:
        part = parts.pop(0)
        field = model.model_fields.get(part) if isinstance(part, str) else None
        if field is None:
            return None
        annotation = field.annotation
        if typing.get_origin(annotation) is dict:  # score_ranges: {column: bounds}: the next part is a column
            annotation = typing.get_args(annotation)[1]
            if not parts:
                return None
            names.append(f"{part}.{parts.pop(0)}")
        else:
            names.append(str(part))
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        model = annotation
    keys = [*model.model_fields] + ([BASE_KEY] if model is ParaNMTConfig else [])
    return ".".join(names), keys


def _unknown_key(loc: tuple[str | int, ...]) -> str | None:
    """An unknown key as one message: the valid keys of its section and the closest one."""
    found = _section_keys(loc)
    if found is None:
        return None
    section, keys = found
    close = difflib.get_close_matches(str(loc[-1]), keys, n=1)
    where = f"{section}'s keys" if section else "the top-level keys"
    hint = f"; did you mean {'.'.join([section, close[0]]) if section else close[0]}?" if close else ""
    return f"unknown key ({where}: {', '.join(keys)}){hint}"


def _format_validation_error(error: ValidationError, source: str, flags: Mapping[str, str],
                             overrides: Mapping[str, str] | None = None) -> str:
    """One line: a value from a dedicated flag is named by its flag (``invalid --beam 0: ...``), any other by its
    field and where it came from -- the ``--set`` that gave it (``overrides``: dotted key -> its text), else the
    file or the defaults (``source``); several problems are joined with ``;``."""
    from_flags: list[str] = []
    by_source: dict[str, list[str]] = {}
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "<root>"
        value = item.get("input")
        message = (_unknown_key(item["loc"]) if item["type"] == "extra_forbidden" else None) or item["msg"]
        if field in flags:
            from_flags.append(f"invalid {flags[field]} {value}: {message} ({field})")
            continue
        given = next((text for key, text in (overrides or {}).items()
                      if field == key or field.startswith(f"{key}.") or key.startswith(f"{field}.")), None)
        shown = "" if isinstance(value, Mapping) or item["type"] == "extra_forbidden" else f" (got {value!r})"
        by_source.setdefault(source if given is None else f"--set {given}", []).append(f"{field}: {message}{shown}")
    from_flags.extend(f"invalid configuration ({where}): {'; '.join(problems)}"
                      for where, problems in by_source.items())
    return "; ".join(from_flags)


def parse_override(text: str) -> tuple[list[str], Any]:
    """``"translate.beam_size=4"`` -> ``(["translate", "beam_size"], 4)``; the value is parsed as YAML."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override {text!r} must look like section.key=value")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError as exc:
        raise ConfigError(f"--set {text}: the value is not valid YAML ({yaml_problem(exc)})") from None
    return key.strip().split("."), value


def yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's error as one line: what it expected and where (its own message spans several lines)."""
    def at(mark: yaml.Mark | None) -> str:
        return f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""

    context = getattr(exc, "context", None)
    opened = f"{context}{at(getattr(exc, 'context_mark', None))}: " if context else ""
    return f"{opened}{getattr(exc, 'problem', None) or exc}{at(getattr(exc, 'problem_mark', None))}"


def _set_dotted(data: dict[str, Any], keys: list[str], value: Any) -> None:  # Any: whatever YAML parsed
    node = data
    for key in keys[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ConfigError(f"cannot set {'.'.join(keys)}: {key} is not a section")
        node = child
    node[keys[-1]] = value


def _is_path_field(keys: list[str]) -> bool:
    """Whether ``section.key`` names a path field of the schema (``translate.model``)."""
    model: type[BaseModel] = ParaNMTConfig
    for i, key in enumerate(keys):
        field = model.model_fields.get(key)
        if field is None:
            return False
        if i == len(keys) - 1:
            return field.annotation is Path or Path in get_args(field.annotation)
        if not (isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)):
            return False
        model = field.annotation
    return False


def resolve_config_path(name: str | Path) -> Path:
    """A path, or the name of a bundled config (``sample`` -> ``configs/sample.yaml``)."""
    path = Path(name)
    if path.is_file():
        return path
    bundled = CONFIG_DIR / (path.name if path.suffix else f"{path.name}.yaml")
    if bundled.exists():
        return bundled
    raise ConfigError(f"config file {str(name)!r} not found (bundled configs: "
                      f"{', '.join(sorted(p.stem for p in CONFIG_DIR.glob('*.yaml')))})")


def _read_yaml(file: Path) -> dict[str, Any]:
    try:
        loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError(f"{file}: not valid YAML: {yaml_problem(exc)}") from None
    if loaded is not None and not isinstance(loaded, dict):
        raise ConfigError(f"{file}: top level must be a mapping of sections, got {type(loaded).__name__}")
    return loaded or {}


def _merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``: mappings merge key by key, any other value (a list included) replaces."""
    merged = dict(base)
    for key, value in over.items():
        below = merged.get(key)
        merged[key] = _merged(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
    return merged


def _file_data(file: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A YAML file's settings, on top of the config its ``base:`` names (a path relative to the file, or a bundled
    name such as ``sample``; a base may have its own). The base's paths stay relative to the base's own folder: it
    is validated on its own and its values taken resolved."""
    data = _read_yaml(file)
    if BASE_KEY not in data:
        return data
    name = data.pop(BASE_KEY)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{file}: {BASE_KEY}: must name a config (a path or a bundled name such as 'sample'), "
                          f"got {name!r}")
    beside = file.parent / name
    base_file = beside if beside.is_file() else resolve_config_path(name)
    chain = (*seen, file.resolve())
    if base_file.resolve() in chain:
        raise ConfigError(f"{file}: {BASE_KEY}: {name} leads back to {base_file}: a config cannot be its own base")
    base_data = _file_data(base_file, chain)
    try:
        base = ParaNMTConfig.model_validate(base_data, context={"base_dir": base_file.resolve().parent})
    except ValidationError as exc:
        raise ConfigError(f"{file}: {BASE_KEY}: {name}: {_format_validation_error(exc, str(base_file), {})}") \
            from None
    return _merged(base.model_dump(mode="json", exclude_unset=True), data)


def load_config(
    path: str | Path | None = None,
    overrides: Iterable[str] = (),
    values: Mapping[str, Any] | None = None,
    flags: Mapping[str, str] | None = None,
) -> ParaNMTConfig:
    """Load and validate a config.

    Args:
        path: a YAML file or a bundled config name; None for the built-in defaults.
        overrides: ``section.key=value`` strings (the CLI's ``--set``).
        values: dotted keys to values from dedicated CLI flags; ``None`` values are skipped (flag not given).
        flags: dotted keys of ``values`` to the flag that gave them (``translate.beam_size`` -> ``--beam``), so an
            invalid value is reported by its flag.
    """
    data: dict[str, Any] = {}
    base_dir: Path | None = None
    source = "defaults"
    if path is not None:
        file = resolve_config_path(path)
        source, base_dir = str(file), file.resolve().parent
        data = _file_data(file)
    set_by: dict[str, str] = {}  # dotted key -> the --set that gave it, so an error names the flag, not the file
    for text in overrides:
        keys, value = parse_override(text)
        set_by[".".join(keys)] = text
        if base_dir is not None and isinstance(value, str) and "://" not in value and _is_path_field(keys):
            value = str(Path(value).expanduser().resolve())  # relative to the working directory, not the file
        _set_dotted(data, keys, value)
    for dotted, value in (values or {}).items():
        if value is not None:
            _set_dotted(data, dotted.split("."), value)
    try:
        # Paths from the YAML file are relative to it; CLI paths (--set above, dedicated flags in the CLI) are
        # relative to the working directory and are made absolute before they get here.
        return ParaNMTConfig.model_validate(data, context={"base_dir": base_dir})
    except ValidationError as exc:
        given = {key: flag for key, flag in (flags or {}).items() if (values or {}).get(key) is not None}
        raise ConfigError(_format_validation_error(exc, source, given, set_by)) from None


def command_config(path: str | Path | None, overrides: Iterable[str], flags: Sequence[ConfigFlag],
                   values: Mapping[str, Any]) -> ParaNMTConfig:  # Any: field values
    """The config a command runs with, one precedence for every command: the ``--config`` file ``path`` (or the
    defaults), then the ``--set`` ``overrides``, then the ``values`` of the command's own config ``flags``
    (:func:`~paranmt.core.command_line.config_values`); a required flag's key left without a value is a
    :class:`~paranmt.core.command_line.UsageError`."""
    config = load_config(path, overrides, values, flags=flag_names(flags))
    check_required(config, flags)
    return config
