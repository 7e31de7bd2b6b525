"""``python -m pipeline.run`` is ``paranmt run`` (not a module that prints nothing and exits 0, the worst answer a
pipeline can give): the same help, checks, exit statuses and output bytes, each run as a user runs it, in a process
of its own. The help and the checks of the arguments answer before Beam
(or torch) is imported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.processes import run_python, run_python_imports
from tests.support.repo import REPO_ROOT

SAMPLE = REPO_ROOT / "configs" / "sample"
# The two ways in: `paranmt` (pyproject's console script, paranmt.cli.paranmt_command:console) and the design's form.
PARANMT_RUN = ("-m", "paranmt", "run")
PYTHON_M = ("-m", "pipeline.run")



def test_the_same_help_before_beam_loads():
    (paranmt, _), (python_m, imported) = (run_python_imports(*PARANMT_RUN, "--help"),
                                          run_python_imports(*PYTHON_M, "--help"))
    assert python_m.returncode == paranmt.returncode == 0
    assert python_m.stdout == paranmt.stdout and python_m.stdout.startswith("usage: paranmt run ")
    assert "--progress-every SECONDS" in python_m.stdout
    assert imported.isdisjoint({"apache_beam", "torch"})


@pytest.mark.parametrize("args, line", [
    (["--cs", "a.cs", "--out", "o"], "error: give --cs and --en in pairs (got 1 --cs and 0 --en)"),
    (["--cs", "a", "--en", "b", "--out", "o", "--beam", "abc"],
     "error: argument --beam: invalid int value: 'abc' (see paranmt run --help)"),
    (["--cs", "a", "--en", "b", "--out", "o", "--set", "pipeline.num_shards=0"], "error: invalid configuration"),
    (["--cs", "a", "--en", "b", "--out", "o", "--progress-every", "0"],
     "error: --progress-every 0: give a number of seconds above 0"),
])
def test_the_same_one_line_errors_before_beam_loads(args, line, tmp_path):
    (paranmt, _), (python_m, imported) = (run_python_imports(*PARANMT_RUN, *args, cwd=tmp_path),
                                          run_python_imports(*PYTHON_M, *args, cwd=tmp_path))
    assert python_m.returncode == paranmt.returncode == 2
    assert python_m.stderr == paranmt.stderr and python_m.stderr.startswith(line)
    assert python_m.stderr.count("\n") == 1 and python_m.stdout == ""
    assert imported.isdisjoint({"apache_beam", "torch"})
    assert list(tmp_path.iterdir()) == []


def test_a_dataflow_job_without_its_options_is_the_same_error(tmp_path):
    args = ["--config", "sample", "--cs", str(SAMPLE / "sample.cs"), "--en", str(SAMPLE / "sample.en"),
            "--out", "out", "--runner", "DataflowRunner"]
    paranmt, python_m = run_python(*PARANMT_RUN, *args, cwd=tmp_path), run_python(*PYTHON_M, *args, cwd=tmp_path)
    assert python_m.returncode == paranmt.returncode == 2
    assert python_m.stderr == paranmt.stderr
    last = python_m.stderr.splitlines()[-1]
    assert last.startswith("error: Beam options for DataflowRunner: ")
    assert all(option in last for option in ("project", "region", "temp_location"))
    assert not (tmp_path / "out").exists()


def _without_timings(text: str) -> str:
    """The report without its timing lines (rows in Xs, time by stage, the translation's span)."""
    return "".join(line + "\n" for line in text.splitlines() if not re.search(r"\d(\.\d+)?s\b", line))


def _outputs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and "cache" not in p.parts}


def test_the_bundled_sample_gives_the_same_bytes(tmp_path):
    """The README's main job (its first 100 pairs: the same path, a third of the time) from each entry point, in
    folders of the same name: the same report, the same shards, the same summary.json."""
    args = ["--config", "sample", "--cs", str(SAMPLE / "sample.cs"), "--en", str(SAMPLE / "sample.en"),
            "--limit", "100", "--out", "out"]
    runs = {}
    for name, entry in (("paranmt", PARANMT_RUN), ("python-m", PYTHON_M)):
        (tmp_path / name).mkdir()
        runs[name] = run_python(*entry, *args, cwd=tmp_path / name)
        assert runs[name].returncode == 0, runs[name].stderr
    assert _without_timings(runs["python-m"].stdout) == _without_timings(runs["paranmt"].stdout)
    assert "read = pairs + rejected + deadletter: 100 = " in runs["python-m"].stdout
    assert "100 rows in " in runs["python-m"].stdout and "pairs/       out/pairs/ (4 shards)" in runs["python-m"].stdout
    paranmt, python_m = _outputs(tmp_path / "paranmt" / "out"), _outputs(tmp_path / "python-m" / "out")
    assert python_m == paranmt and "summary.json" in python_m and "_SUCCESS" in python_m
    assert json.loads(python_m["summary.json"])["read"] == 100
