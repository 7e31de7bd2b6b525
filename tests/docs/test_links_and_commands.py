"""The README and docs/ point at things that exist: every relative link resolves (the file, and the heading when
the link names one), and every ``paranmt SUBCOMMAND ...`` command they give uses only flags that the subcommand's
``--help`` lists (Beam pipeline options pass through ``paranmt run`` and are checked against Beam's own)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import re
import tomllib
from pathlib import Path

import pytest

from tests.support.repo import REPO_ROOT

PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
NESTED = {"convert", "lexicon"}  # subcommands with their own subcommands (paranmt convert marian ...)
# The library modules that run as `python -m`: each is the command named (tests/test_architecture.py).
PYTHON_M = {"pipeline.run": "paranmt run", "train_embeddings": "paranmt train"}


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces -> -."""
    heading = re.sub(r"`|\*\*|\[|\]\([^)]*\)", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    prose = _split(_text(page))[1]  # a comment line in a code block is no heading
    return {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", prose, re.MULTILINE)}


def test_every_relative_link_resolves():
    broken = []
    for page in PAGES:
        for match in LINK.finditer(_split(_text(page))[1]):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z]+:", target):  # http(s):, mailto:
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(REPO_ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                broken.append(f"{page.relative_to(REPO_ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def _split(text: str) -> tuple[list[str], str]:
    """The lines of the shell and text code blocks (continuation lines joined), and the prose without any block."""
    code, prose, fence, block = [], [], None, []
    for line in text.splitlines():
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence, block = stripped[3:].strip(), []
        elif fence is not None and stripped == "```":
            if fence in ("", "bash", "text"):
                code += "\n".join(block).replace("\\\n", " ").splitlines()
            fence = None
        elif fence is not None:
            block.append(line)
        else:
            prose.append(line)
    return code, "\n".join(prose)


def _commands(text: str) -> list[str]:
    """``paranmt ...`` commands: code-block lines that start with one (comments cut), and inline code spans; a
    ``python -m`` form of a command counts as that command."""
    text = re.sub(r"(?:\.venv/bin/)?python -m ([\w.]+)", lambda m: PYTHON_M.get(m.group(1), m.group(0)), text)
    code, prose = _split(text)
    found = [m.group(1).split(" #")[0] for line in code
             if (m := re.match(r"\s*(?:\.venv/bin/)?(paranmt [a-z].*)", line))]
    found += [m.group(1).split(" &&")[0] for line in code  # e.g. the README's set-up command ends with one
              if not line.lstrip().startswith(".venv/bin/paranmt")
              for m in re.finditer(r"\.venv/bin/(paranmt [a-z][^&#]*)", line)]
    return found + re.findall(r"`(paranmt [a-z][^`]*)`", prose)


@functools.cache
def _help(words: tuple[str, ...]) -> str:
    """The ``--help`` text of ``paranmt WORDS``, from the ``main`` of the module pyproject.toml declares for
    ``paranmt`` (its ``console`` ends the process, so a test calls what it runs)."""
    target = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["scripts"]["paranmt"]
    module, _, name = target.partition(":")
    assert name == "console", target
    entry = importlib.import_module(module).main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        entry([*words, "--help"])
    return out.getvalue()


@functools.cache
def _beam_flags() -> set[str]:
    from apache_beam.options.pipeline_options import PipelineOptions

    parser = argparse.ArgumentParser(add_help=False)
    todo, seen = [PipelineOptions], set()
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls not in seen:
            seen.add(cls)
            with contextlib.suppress(argparse.ArgumentError):
                cls._add_argparse_args(parser)
    return set(parser._option_string_actions)


def test_paranmt_commands_in_the_docs_use_flags_their_help_lists():
    commands = [(page, c) for page in PAGES for c in _commands(_text(page))]
    assert len(commands) > 30, commands  # the README and docs give their commands as `paranmt SUBCOMMAND`
    top = _help(())
    wrong = []
    for page, command in commands:
        words = command.split()
        sub = words[1]
        if re.search(rf"^  {re.escape(sub)} ", top, re.MULTILINE) is None:
            wrong.append(f"{page.name}: {command!r}: no subcommand {sub!r}")
            continue
        key = (sub, words[2]) if sub in NESTED and len(words) > 2 and not words[2].startswith("-") else (sub,)
        listed = set(re.findall(r"--[a-z][\w-]*", _help(key)))
        for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", command):
            if flag not in listed and not (sub == "run" and flag in _beam_flags()):
                wrong.append(f"{page.name}: {command!r}: {flag} is not in `paranmt {' '.join(key)} --help`")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_python_m_forms_of_library_modules(page):
    """Commands are written `paranmt SUBCOMMAND`, or as the two library modules that run as `python -m`
    (:data:`PYTHON_M`); no other library module runs that way."""
    library = r"(?:pipeline|translate|filters|train_embeddings|paranmt\.core|configs)"
    used = re.findall(rf"python -m ({library}\b[\w.]*)", _text(page))
    assert [name for name in used if name not in PYTHON_M] == [], f"{page.name}: write `paranmt SUBCOMMAND`"


def test_benchmark_scripts_and_results_the_pages_name_exist():
    """A page names a benchmark by its path (``benchmarks/GROUP/NAME.py``, a results file) or its module
    (``python -m benchmarks.GROUP.NAME``, ``benchmarks.GROUP.NAME.function``): each exists after a move too. A path
    given to a flag (``--json benchmarks/results/NEW.json``) is what a command writes, not a reference."""
    missing = []
    for page in PAGES:
        text = _text(page)
        for match in re.finditer(r"(?<![\w/.])benchmarks/[\w/.-]*\w", text):
            written = re.search(r"--[\w-]+[ =]$", text[:match.start()])
            if not written and not (REPO_ROOT / match.group()).exists():
                missing.append(f"{page.name}: {match.group()}")
        for name in re.findall(r"(?<![\w/.])benchmarks(?:\.\w+)+", text):
            parts = name.split(".")
            if parts[1:] != ["py"] and not any((REPO_ROOT / Path(*parts[:i])).with_suffix(".py").is_file()
                                               for i in range(2, len(parts) + 1)):
                missing.append(f"{page.name}: {name}")
    assert missing == []
