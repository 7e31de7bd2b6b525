"""Named sections of a generated markdown page, written by different commands: a command replaces its own section
(``<!-- section:NAME -->`` … ``<!-- /section:NAME -->``) and leaves the rest of the page alone; a command that
rewrites the whole page (``benchmarks.reproduction.reproduce --docs``) keeps the sections it does not own; and the
markdown tables and PNG figures in them, made one way."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from paranmt.core.plotting import pyplot

__all__ = ["kept_sections", "read_section", "replace_section", "save_figure", "table"]


def _pattern(name: str = r"[\w-]+") -> re.Pattern[str]:
    return re.compile(rf"<!-- section:({name}) -->\n.*?<!-- /section:\1 -->\n?", re.DOTALL)


def replace_section(path: Path, name: str, body: str) -> None:
    """Write ``body`` as section ``name`` of ``path``: in place of the old one, else appended (file created)."""
    block = f"<!-- section:{name} -->\n{body.rstrip()}\n<!-- /section:{name} -->\n"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    pattern = _pattern(re.escape(name))
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip() + ("\n\n" if text.strip() else "") + block
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def read_section(path: Path, name: str) -> str:
    """The body of section ``name`` of ``path`` as :func:`replace_section` wrote it; a missing one is a SystemExit."""
    found = _pattern(re.escape(name)).search(path.read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit(f"{path} has no section {name}")
    return found.group(0).split("\n", 1)[1].rsplit("<!-- /section:", 1)[0].rstrip()


def kept_sections(path: Path) -> str:
    """Every named section of ``path`` (empty when there is none or no file), to append to a regenerated page."""
    if not path.is_file():
        return ""
    return "\n".join(m.group(0).rstrip() + "\n" for m in _pattern().finditer(path.read_text(encoding="utf-8")))


def table(head: Sequence[object], align: str, rows: Iterable[Sequence[object]]) -> list[str]:
    """A markdown table's lines: ``head``, the alignment row (``align``: ``l`` or ``r`` a column, its last letter
    repeated for the columns after it), then a line a row; a cell is its ``str``."""
    marks = [align[min(i, len(align) - 1)] for i in range(len(head))]
    return [_row(head), "|" + "".join("---:|" if mark == "r" else "---|" for mark in marks), *map(_row, rows)]


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(map(str, cells)) + " |"


def save_figure(figure: Any, path: Path, dpi: int = 100) -> None:
    """A matplotlib figure (from :func:`paranmt.core.plotting.pyplot`) laid out, written to ``path`` as PNG
    (folders made) and closed."""
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=dpi)
    pyplot().close(figure)
