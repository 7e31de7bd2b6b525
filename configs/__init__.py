"""Configuration: YAML files in this folder, typed and validated by :mod:`configs.schema`.

Precedence (lowest to highest): built-in defaults < YAML file < ``--set section.key=value`` overrides < the
dedicated CLI flags of a command (e.g. ``--beam``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel, ValidationError

from configs.schema import ParaNMTConfig, TranslateConfig
from core.errors import ParanmtError

CONFIG_DIR = Path(__file__).resolve().parent

__all__ = ["CONFIG_DIR", "ConfigError", "ParaNMTConfig", "TranslateConfig", "load_config",
           "parse_override"]


class ConfigError(ParanmtError, ValueError):
    """A configuration value is missing, unknown or invalid; the message names the field and the value."""


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
        message = item["msg"]
        if field in flags:
            from_flags.append(f"invalid {flags[field]} {value}: {message} ({field})")
            continue
        given = next((text for key, text in (overrides or {}).items()
                      if field == key or field.startswith(f"{key}.") or key.startswith(f"{field}.")), None)
        shown = "" if isinstance(value, Mapping) else f" (got {value!r})"
        by_source.setdefault(source if given is None else f"--set {given}", []).append(f"{field}: {message}{shown}")
    from_flags.extend(f"invalid configuration ({where}): {'; '.join(problems)}"
                      for where, problems in by_source.items())
    return "; ".join(from_flags)


def parse_override(text: str) -> tuple[list[str], Any]:
    """``"translate.beam_size=4"`` -> ``(["translate", "beam_size"], 4)``; the value is parsed as YAML."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override {text!r} must look like section.key=value")
    return key.strip().split("."), yaml.safe_load(raw) if raw.strip() else None


def _set_dotted(data: dict[str, Any], keys: list[str], value: Any) -> None:
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
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ConfigError(f"{file}: not valid YAML: {exc}") from exc
        if loaded is not None and not isinstance(loaded, dict):
            raise ConfigError(f"{file}: top level must be a mapping of sections, got {type(loaded).__name__}")
        data = loaded or {}
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
