"""Every ``--help`` and every argument error answers before the work's modules load (torch and sacremoses take
10-15 s on a loaded machine). Nothing here is timed: a fresh process runs each subcommand's help and two argument
errors through ``paranmt``'s entry and reports which heavy modules were loaded after each (none may be)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from paranmt.cli.paranmt_command import SUBCOMMANDS
from tests.support.repo import REPO_ROOT

HEAVY = ("torch", "sacremoses", "apache_beam", "ctranslate2", "spacy", "fairseq")
# subcommand -> arguments per case: the help (of a sub-subcommand too), an unknown flag, no arguments at all
CASES = {name: {"help": [name, "--help"], "unknown flag": [name, "--no-such-flag"], "no arguments": [name]}
         for name in SUBCOMMANDS}
CASES["convert"]["sub help"] = ["convert", "fairseq", "--help"]
CASES["lexicon"]["sub help"] = ["lexicon", "build", "--help"]
CASES["lexicon"]["sub error"] = ["lexicon", "neighbours"]

PROBE = """
import contextlib, io, json, sys
from paranmt.cli.paranmt_command import main
heavy, cases, out = {heavy!r}, json.loads(sys.argv[1]), {{}}
for name, runs in cases.items():
    for case, args in runs.items():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                code = main(args)
            except SystemExit as exit_:
                code = exit_.code
        out[f"{{name}}: {{case}}"] = [code, sorted(m for m in heavy if m in sys.modules), err.getvalue()]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def probed() -> dict[str, list]:
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), json.dumps(CASES)], cwd=REPO_ROOT,
                          capture_output=True, text=True, check=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("case", [f"{name}: {case}" for name, runs in CASES.items() for case in runs])
def test_help_and_argument_errors_load_no_heavy_module(case, probed):
    code, heavy, err = probed[case]
    assert heavy == [], f"paranmt {case} loaded {heavy}"
    if "help" in case:
        assert code == 0 and err == ""
    else:  # a one-line error, exit status 2
        assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("error: "), err
