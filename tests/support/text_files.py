"""Text files the way the tests read and write them: UTF-8, one string per line."""

from __future__ import annotations

from pathlib import Path


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_pair_files(folder: Path, name: str, cs: list[str], en: list[str]) -> tuple[Path, Path]:
    """``folder/name.cs`` and ``folder/name.en``, one sentence per line: a line-aligned bitext."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = folder / f"{name}.cs", folder / f"{name}.en"
    for path, lines in zip(paths, (cs, en), strict=True):
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return paths
