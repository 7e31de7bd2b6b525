"""The install routes. install.sh, the README's set-up, checked against pyproject.toml's extras (fast). The worker
route docs/dataflow.md gives (``--setup_file ./pyproject.toml``): Beam builds an sdist on the launcher with
``python -m build --no-isolation --sdist`` and each worker pip-installs it, base dependencies only. Here: the same
sdist, installed with the project's constraints into a fresh environment, runs the sample job, with no torchaudio
beside torch and ``pip check`` clean (an install other than the README's command works too). That one
is slow (a fresh environment: minutes, and the package index), so ``-m slow``."""

from __future__ import annotations

import re
import shutil
import tomllib

import pytest

from tests.support.processes import run_command, run_python
from tests.support.repo import REPO_ROOT

PROJECT = ["pyproject.toml", "README.md", "constraints.txt", "paranmt", "configs", "filters", "pipeline",
           "translate", "train_embeddings"]


def test_install_sh_builds_the_pinned_fairseq_and_installs_the_rest_of_dev():
    """install.sh installs `dev` minus fairseq while fairseq-fixed's wheel builds, then `.[dev]` with that wheel: the
    extras of the step in between are dev's others, and each pin it reads from pyproject.toml (the fairseq-fixed it
    builds, the filelock it installs beside torch) is found there once."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    (dev,) = project["optional-dependencies"]["dev"]
    dev_extras = set(re.fullmatch(r"paranmt\[(.+)\]", dev).group(1).split(","))
    script = (REPO_ROOT / "install.sh").read_text()
    installs = {frozenset(m.split(",")) for m in re.findall(r'-e "\.\[([^\]]+)\]"', script)}
    assert installs == {frozenset({"dev"}), frozenset(dev_extras - {"fairseq"})}, installs
    names = re.findall(r"\$\(pin ([\w-]+)\)", script)  # install.sh reads these pins from pyproject.toml
    assert set(names) == {"fairseq-fixed", "filelock"}, names
    (pin,) = [line for line in script.splitlines() if line.startswith("pin() ")]
    calls = "".join(f"pin {n}\n" for n in names)
    found = run_command(["bash", "-c", f"{pin}\n{calls}"], expect_ok=True).stdout.split()
    assert [f.partition("==")[0] for f in found] == names and all(re.fullmatch(r"[\w-]+==[\w.]+", f) for f in found)
    run_command(["bash", "-n", REPO_ROOT / "install.sh"], expect_ok=True)


@pytest.mark.slow
def test_the_setup_file_route_installs_a_worker_that_runs_the_sample(tmp_path):
    source = tmp_path / "src"
    for name in PROJECT:  # the project as committed, without a checkout's runs/, caches or venv
        target = source / name
        if (REPO_ROOT / name).is_dir():
            shutil.copytree(REPO_ROOT / name, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, target)
    # What `python -m build --no-isolation --sdist` does: the backend's own hook, in this environment.
    build_sdist = "import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])"
    run_python("-c", build_sdist, tmp_path / "dist", cwd=source, timeout=1800, expect_ok=True)
    (sdist,) = (tmp_path / "dist").glob("paranmt-*.tar.gz")
    worker = tmp_path / "worker"
    run_python("-m", "venv", worker, timeout=1800, expect_ok=True)
    python = worker / "bin" / "python"
    env = {"PIP_CONSTRAINT": str(REPO_ROOT / "constraints.txt"), "PYTHONPATH": ""}  # the installed package runs
    run_command([python, "-m", "pip", "install", sdist], env=env, timeout=1800, expect_ok=True)
    run_command([python, "-m", "pip", "check"], env=env, timeout=1800, expect_ok=True)
    probe = "import importlib.metadata as m, importlib.util as u; print(m.version('torch'), u.find_spec('torchaudio'))"
    versions = run_command([python, "-c", probe], env=env, expect_ok=True).stdout.split()
    assert versions == ["2.13.0+cpu", "None"], versions  # the constrained CPU torch, and no torchaudio beside it
    work = tmp_path / "work"  # away from the source tree: the installed package runs
    work.mkdir()
    sample = source / "configs" / "sample"
    done = run_command([worker / "bin" / "paranmt", "run", "--config", "sample", "--cs", sample / "sample.cs",
                        "--en", sample / "sample.en", "--out", work / "run"], cwd=work, env=env, timeout=1800,
                       expect_ok=True)
    assert "read = pairs + rejected + deadletter: 400 = " in done.stdout and "-- holds" in done.stdout
    assert "WARNING paranmt.core.command_line: torchaudio" not in done.stderr
