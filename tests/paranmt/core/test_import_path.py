"""Classes by import path: the class comes back, and each wrong path is one line that starts with the config key
and says what to fix (the error class is the caller's)."""

from __future__ import annotations

import pytest

from paranmt.core.errors import ParanmtError
from paranmt.core.import_path import OWN_PACKAGES, load_class
from tests.support.plugin_examples import LongEnglish
from tests.support.repo import REPO_ROOT

EXAMPLE = "mypackage.filters:LanguageId"


class LookupProblem(ParanmtError, ValueError):
    """The error a caller passes in (the plug-ins pass PluginError, the translator BackendUnavailable)."""


def load(path: str) -> type:
    return load_class(path, "select.rules[0]", LookupProblem, EXAMPLE)


def test_a_class_comes_back_as_it_is():
    assert load("tests.support.plugin_examples:LongEnglish") is LongEnglish


@pytest.mark.parametrize(("path", "message"), [
    ("LongEnglish", f"select.rules[0]: 'LongEnglish' is not an import path like {EXAMPLE}"),
    ("tests.support.plugin_examples:", "is not an import path like"),
    (":LongEnglish", "is not an import path like"),
    ("no_such_package_xyz.rules:Rule", "select.rules[0]: cannot import no_such_package_xyz.rules for "
                                       "'no_such_package_xyz.rules:Rule' (No module named 'no_such_package_xyz'); "
                                       "is its package installed or on PYTHONPATH?"),
    ("tests.support.plugin_examples:Missing", "select.rules[0]: tests.support.plugin_examples has no class Missing"),
    # a module attribute that is not a class
    ("tests.support.plugin_examples:annotations", "tests.support.plugin_examples has no class annotations"),
])
def test_a_wrong_path_is_one_line_naming_the_key_and_the_fix(path, message):
    with pytest.raises(LookupProblem) as caught:
        load(path)
    assert str(caught.value).startswith("select.rules[0]: ") and message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_users_module_hidden_by_one_of_ours_is_told_to_rename():
    """``filters:MaxChars`` imports paranmt's ``filters``, not the user's ``filters.py``: the message says so."""
    with pytest.raises(LookupProblem) as caught:
        load("filters.rules:MaxChars")
    assert str(caught.value) == ("select.rules[0]: filters.rules is paranmt's own module and has no class MaxChars; "
                                 "if MaxChars is in a module of yours named filters, rename it (e.g. my_filters.py) "
                                 "and write my_filters:MaxChars")


def test_own_packages_are_the_repositorys_top_level_packages():
    """Every top-level folder of Python modules (benchmarks/ is a namespace package) but the tests'."""
    packages = {path.parent.name for path in REPO_ROOT.glob("*/*.py")}
    assert packages - {"tests"} == OWN_PACKAGES
