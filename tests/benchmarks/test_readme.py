"""benchmarks/README.md is the map of benchmarks/: every script in a group folder has its row (what it measures, the
page it feeds, its command), the folder holds only the shared helpers directly, and the groups are laid out as the
README says (namespace packages, their tests mirrored in tests/benchmarks/)."""

from __future__ import annotations

import re

from tests.support.repo import REPO_ROOT

BENCHMARKS = REPO_ROOT / "benchmarks"
README = BENCHMARKS / "README.md"


def _rows() -> dict[str, list[str]]:
    """script (``GROUP/NAME.py``) -> its cells, from the README's table of scripts."""
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 4 and re.fullmatch(r"`\w+/\w+\.py`", cells[0]):
            rows[cells[0].strip("`")] = cells
    return rows


def _groups() -> list[str]:
    return sorted(p.name for p in BENCHMARKS.iterdir() if p.is_dir() and p.name not in ("results", "__pycache__"))


def test_every_script_in_a_group_has_its_row_with_a_page_and_a_command() -> None:
    rows = _rows()
    scripts = sorted(p.relative_to(BENCHMARKS).as_posix() for group in _groups()
                     for p in (BENCHMARKS / group).glob("*.py"))
    assert scripts and [s for s in scripts if s not in rows] == []
    for script in scripts:
        _, _, feeds, command = rows[script]
        module = "benchmarks." + script.removesuffix(".py").replace("/", ".")
        assert feeds, script
        # a script's command runs that module; a helper says which script runs or imports it
        assert module in command or re.match(r"(run|imported|named) by `\w+\.py`", command), (script, command)


def test_the_readme_links_resolve() -> None:
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)", text)
    assert links and [link for link in links if not (README.parent / link).exists()] == []


def test_only_shared_helpers_directly_in_benchmarks() -> None:
    flat = sorted(p.name for p in BENCHMARKS.glob("*.py"))
    assert len(flat) <= 10, flat
    assert {"paths.py", "doc_sections.py"} <= set(flat)


def test_groups_are_namespace_packages_mirrored_by_their_tests() -> None:
    """No ``benchmarks/GROUP/__init__.py``: with one, a ``sys.path`` holding benchmarks/ would import
    ``benchmarks/pipeline`` as the product's ``pipeline``."""
    groups = _groups()
    assert [g for g in groups if (BENCHMARKS / g / "__init__.py").exists()] == []
    tests = REPO_ROOT / "tests" / "benchmarks"
    mirrored = sorted(p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert [g for g in mirrored if g not in groups] == []
