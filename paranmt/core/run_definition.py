"""A run's definition: the settings that make two runs the same run, for every tool that writes a run folder
(``paranmt run``, ``paranmt train``, ``paranmt train-nmt``).

One rule for every run folder: a folder that holds the same run is resumed; one that holds a different run is
refused with :class:`DifferentRun` unless ``--overwrite``. A definition is every setting of a pydantic model but
those marked :data:`MAY_CHANGE` on the model's own fields (how a run executes, e.g. threads or the runner, or a
budget a resumed run may raise), plus what a tool adds by name (its inputs, its seed, a digest of its data). It is
written as JSON (:func:`definition_text`), to :data:`DEFINITION_FILE` in the folder (``paranmt train`` keeps it in
its checkpoint), and compared key by key on a rerun (:func:`changed_keys`), the keys named as dotted paths.
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, JsonValue

from paranmt.core.errors import ParanmtError

__all__ = ["DEFINITION_FILE", "MAY_CHANGE", "DifferentRun", "changed_keys", "check_same_run", "definition_text",
           "read_definition", "run_definition"]

#: The file in a run folder that holds its definition.
DEFINITION_FILE = "definition.json"

#: ``json_schema_extra`` of a setting a rerun may change and still be the same run: left out of the definition.
MAY_CHANGE: dict[str, JsonValue] = {"in_run_definition": False}

#: Differing keys a refusal names before "and N more".
SHOWN_KEYS = 3


class DifferentRun(ParanmtError, ValueError):
    """The run folder holds a different run; the message names the settings that differ and the two ways out."""


def _may_change(model: type[BaseModel], name: str) -> bool:
    extra = model.model_fields[name].json_schema_extra
    return isinstance(extra, dict) and extra.get("in_run_definition") is False


def _defining(model: BaseModel, dumped: dict[str, Any]) -> dict[str, JsonValue]:
    """``dumped`` (``model``'s JSON dump) less the fields marked :data:`MAY_CHANGE`, in nested models too."""
    kept: dict[str, JsonValue] = {}
    for name, value in dumped.items():
        if _may_change(type(model), name):
            continue
        field = getattr(model, name)
        kept[name] = _defining(field, value) if isinstance(field, BaseModel) and isinstance(value, dict) else value
    return kept


def run_definition(settings: BaseModel | None = None, /, **parts: BaseModel | JsonValue) -> dict[str, JsonValue]:
    """The definition of a run: the fields of ``settings`` (at the top level) and each of ``parts`` (under its
    name), pydantic models dumped as JSON less their :data:`MAY_CHANGE` fields, other values as given."""
    definition: dict[str, JsonValue] = {}
    if settings is not None:
        definition.update(_defining(settings, settings.model_dump(mode="json")))
    for name, part in parts.items():
        definition[name] = _defining(part, part.model_dump(mode="json")) if isinstance(part, BaseModel) else part
    return definition


def definition_text(definition: Mapping[str, JsonValue]) -> str:
    """The one way a definition is written: JSON, keys sorted (the same run, the same bytes)."""
    return json.dumps(definition, indent=1, sort_keys=True)


def read_definition(text: str, where: str | os.PathLike[str]) -> dict[str, JsonValue]:
    """A definition written by :func:`definition_text`; ``where`` names its file in the error of an unreadable one."""
    definition = _parsed(text)
    if definition is None:
        raise _unreadable(where)
    return definition


def _unreadable(where: str | os.PathLike[str]) -> DifferentRun:
    return DifferentRun(f"{where} is not a run definition: pass --overwrite to replace the run, or choose another "
                        "--out")


def _parsed(text: str) -> dict[str, JsonValue] | None:
    try:
        definition = json.loads(text)
    except ValueError:
        return None
    return definition if isinstance(definition, dict) else None


def _flat(value: JsonValue, prefix: str = "") -> dict[str, JsonValue]:
    if isinstance(value, dict) and (value or not prefix):
        return {k: v for key, item in value.items() for k, v in _flat(item, f"{prefix}{key}.").items()}
    return {prefix.rstrip("."): value}


def changed_keys(stored: Mapping[str, JsonValue], current: Mapping[str, JsonValue]) -> list[str]:
    """``<key> <stored> -> <current>`` for every dotted key whose value differs, in key order (JSON values;
    ``absent`` where one side lacks the key)."""
    before, after = _flat(dict(stored)), _flat(dict(current))

    def shown(values: dict[str, JsonValue], key: str) -> str:
        return json.dumps(values[key], sort_keys=True, ensure_ascii=False) if key in values else "absent"

    return [f"{key} {shown(before, key)} -> {shown(after, key)}" for key in sorted(before.keys() | after.keys())
            if key not in before or key not in after or before[key] != after[key]]


def check_same_run(recorded: str, where: str | os.PathLike[str], current: Mapping[str, JsonValue], *,
                   overwrite: bool) -> bool:
    """Whether the run folder whose definition file ``where`` holds ``recorded`` (its text) is to be replaced: False
    for the same run (resume it), True for a different run or an unreadable definition with ``overwrite`` (the
    caller deletes what that run wrote). Without ``overwrite``, a different run raises :class:`DifferentRun` naming
    the folder and its first :data:`SHOWN_KEYS` differing keys, an unreadable definition naming its file."""
    stored = _parsed(recorded)
    if stored is None:
        if overwrite:
            return True
        raise _unreadable(where)
    changed = changed_keys(stored, current)
    if not changed:
        return False
    if overwrite:
        return True
    more = f" and {len(changed) - SHOWN_KEYS} more" if len(changed) > SHOWN_KEYS else ""
    raise DifferentRun(f"{posixpath.dirname(os.fspath(where))} holds a different run "
                       f"({', '.join(changed[:SHOWN_KEYS])}{more}): pass --overwrite to replace it, or choose "
                       "another --out")
