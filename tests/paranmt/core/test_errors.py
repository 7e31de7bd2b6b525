"""The one error base: its exit status, and every project error deriving from it while keeping the built-in base
that library callers catch (``except ValueError`` around a config load still works)."""

from __future__ import annotations

import ast

from paranmt.core.errors import ParanmtError
from tests.support.repo import REPO_ROOT

PACKAGES = ("configs", "filters", "paranmt", "pipeline", "train_embeddings", "translate")
BUILTIN_BASES = {"ValueError", "RuntimeError", "FileNotFoundError", "OSError"}


def _error_classes() -> dict[str, list[str]]:
    """``class name -> its base names`` of every class in the product, read from the source (no imports: Beam and
    torch stay unloaded)."""
    classes: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    classes[node.name] = [ast.unparse(base) for base in node.bases]
    return classes


def _derives(name: str, base: str, classes: dict[str, list[str]]) -> bool:
    return name == base or any(_derives(parent, base, classes) for parent in classes.get(name, []))


def test_a_user_error_exits_with_status_2_and_is_an_exception():
    assert ParanmtError.exit_status == 2
    assert issubclass(ParanmtError, Exception) and not issubclass(ParanmtError, ValueError | RuntimeError)


def test_every_project_error_keeps_a_builtin_base_beside_paranmt_error():
    classes = _error_classes()
    project_errors = sorted(name for name in classes if name != "ParanmtError" and _derives(name, "ParanmtError",
                                                                                          classes))
    assert len(project_errors) > 20  # the scan found them (ConfigError, SchemaMismatch, ...)
    for name in project_errors:
        builtin = [base for base in BUILTIN_BASES if _derives(name, base, classes)]
        assert builtin, f"{name} derives from ParanmtError alone: keep its ValueError or RuntimeError base"
    # the other way round: a class the product raises for bad input that names a built-in base alone is no error
    # the command lines turn into one line
    strays = [name for name, bases in classes.items() if name.endswith("Error") and name != "ParanmtError" and bases
              and set(bases) <= BUILTIN_BASES | {"Exception"}]
    assert strays == [], f"{strays}: derive them from ParanmtError"
