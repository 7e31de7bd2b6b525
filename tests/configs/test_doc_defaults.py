"""The docs' tables of config keys state defaults (docs/filters.md's ``score.`` and ``select.`` tables,
docs/translate-models.md's ``translate.``): each one is the schema's, so a changed default cannot leave a page
behind. Every table of the form ``| `SECTION.` key | default | meaning |`` in docs/ is read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from configs.schema import ParaNMTConfig
from paranmt.core.command_line import schema_field

DOCS = Path(__file__).resolve().parents[2] / "docs"
_HEADER = re.compile(r"^\| `(\w+)\.` key \| default \| meaning \|$")


def key_tables() -> list[tuple[str, str, str, str]]:
    """``(page, section, keys cell, default cell)`` for each row of each config-key table in docs/."""
    rows = []
    for page in sorted(DOCS.glob("*.md")):
        section = None
        for line in page.read_text(encoding="utf-8").splitlines():
            header = _HEADER.match(line)
            if header:
                section = header.group(1)
            elif section and line.startswith("|") and not line.startswith("|---"):
                cells = [cell.strip() for cell in line.strip("|").split(" | ")]
                rows.append((page.name, section, cells[0], cells[1]))
            elif not line.startswith("|"):
                section = None
    return rows


def stated(cell: str) -> tuple[Any, list[str]]:  # Any: the value the cell states
    """A default cell's value (``30``, ``20,000``, ```[9, 10]```, ```null` (fit)``, ``none (512 on CPU, ...)``)
    and the numbers of its remark in parentheses."""
    main, _, remark = cell.partition(" (")
    code = re.fullmatch(r"`([^`]*)`", main.strip())
    text = code.group(1) if code else main.strip().replace(",", "")
    if text == "none":
        text = "null"
    value = yaml.safe_load(text)
    if isinstance(value, str) and re.fullmatch(r"[\d.]+e-?\d+", value):  # 1e-3: YAML 1.1 reads it as a string
        value = float(value)
    return value, re.findall(r"\d[\d,]*", remark)


def split(cell: str) -> list[str]:
    """``a / b`` -> ``[a, b]``, outside brackets, parentheses and backticks."""
    parts, depth, current = [], 0, ""
    for i, char in enumerate(cell):
        depth += (char in "([{" and 1) or (char in ")]}" and -1) or 0
        if char == "/" and depth == 0 and cell[i - 1:i] == " " and cell.count("`", 0, i) % 2 == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


ROWS = key_tables()


def test_the_tables_are_found() -> None:
    assert {(page, section) for page, section, _, _ in ROWS} >= {
        ("filters.md", "score"), ("filters.md", "select"), ("translate-models.md", "translate")}


@pytest.mark.parametrize(("page", "section", "keys", "defaults"), ROWS, ids=[f"{r[1]}.{r[2]}" for r in ROWS])
def test_each_stated_default_is_the_schemas(page: str, section: str, keys: str, defaults: str) -> None:
    names = [name.strip("`") for name in split(keys)]
    values = split(defaults)
    assert len(names) == len(values), f"{page}: {keys} has {len(values)} defaults"
    for name, cell in zip(names, values, strict=True):
        field = schema_field(ParaNMTConfig, f"{section}.{name}")
        default = field.get_default(call_default_factory=True)
        value, remark_numbers = stated(cell)
        if name == "embeddings" and value == "GloVe 6B 50d":  # the cell names the kumo package the None stands for
            value = None
        if value == "kumo" and default is None:
            value = None
        shown = {key: value.model_dump() for key, value in default.items()} if isinstance(default, dict) else default
        assert value == shown, f"{page}: {section}.{name} is documented as {cell!r}, the schema says {default!r}"
        description = (field.description or "").replace(",", "")
        assert all(n.replace(",", "") in description for n in remark_numbers), \
            f"{page}: {section}.{name}'s remark {cell!r} states numbers its schema description does not"
