"""benchmarks/gpu/gpu_bundle.py's package list: derived from the installed metadata, it carries every distribution
paranmt's code reaches that the GPU image lacks (the hand-written list it replaced missed pytz, which Beam imports
at start-up), nothing the image has, and it is closed: whatever a carried package requires is carried, the image's,
or left out with a reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from importlib.metadata import PackageNotFoundError, distribution, version
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from tests.support.repo import REPO_ROOT, load_benchmark
from tests.support.shared_data import shared_data


@pytest.mark.parametrize("python", ["3.12", "3.11"])
def test_the_bundle_carries_what_the_image_lacks_and_nothing_it_has(python):
    bundle = load_benchmark("gpu/gpu_bundle")
    markers = bundle.Target(Path(f"python{python}"), python, f"{python}.0", Path("include")).markers()
    pins = bundle.carried(markers)
    image = bundle.image_distributions(markers)
    left_out = {canonicalize_name(name) for name in bundle.NOT_CARRIED}
    assert {"apache-beam", "pytz", "ctranslate2", "fairseq-fixed", "antlr4-python3-runtime", "hydra-core",
            "omegaconf", "sacremoses", "subword-nmt", "pydantic", "protobuf", "sacrebleu", "zstandard"} <= set(pins)
    assert set(pins) & image == set() and set(pins) & left_out == set()
    assert {canonicalize_name(name) for name in bundle.IMAGE_LACKS} & image == set()
    assert all(pins[name] == version(name) for name in pins)
    for name in pins:  # closed under requirements, markers and extras as the target evaluates them
        assert set(bundle.closure([(name, ())], markers, stop=(set(pins) | image | left_out) - {name})) == {name}


def image_standin(folder: Path, names: set[str]) -> None:
    """A folder holding only the image's distributions: links to this environment's copies of them."""
    folder.mkdir()
    for name in names:
        try:
            files = distribution(name).files or []
        except PackageNotFoundError:  # an image package not installed here: the suite must not need it
            continue
        for top in {file.parts[0] for file in files if file.parts[0] != ".."}:
            source = Path(distribution(name).locate_file(top))
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)


@pytest.mark.slow
def test_the_smoke_suite_runs_on_the_bundle_and_the_image_packages_alone(tmp_path):
    """What the GPU machine runs, on this machine's Python: a bundle built for it (downloads from the registry),
    and ``gpu_suite.py --smoke --bundle`` run by a bare interpreter (a venv with no packages) whose PYTHONPATH is
    the bundle's site/ and a folder of the image's packages only."""
    shared_data("bitext/tatoeba.cs")
    shared_data("paraphrase/multi30k-captions")
    shared_data("../models/small-cs-en/fairseq/checkpoint_best.pt")
    bundle = load_benchmark("gpu/gpu_bundle")
    python = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    assert bundle.main(["--python", str(python), "--out", str(tmp_path / "gpu")]) == 0
    unpacked = tmp_path / "bundle"
    unpacked.mkdir()
    with tarfile.open(tmp_path / "gpu" / "bundle.tar.xz") as archive:
        archive.extractall(unpacked, filter="data")
    target = bundle.Target.probe(python)
    image_standin(tmp_path / "image", bundle.image_distributions(target.markers()))
    subprocess.run([str(python), "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True)
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(tmp_path)), "PYTHONNOUSERSITE": "1",
           "PYTHONPATH": os.pathsep.join([str(unpacked / "site"), str(tmp_path / "image")])}
    out = tmp_path / "suite.json"
    done = subprocess.run([str(tmp_path / "bare" / "bin" / "python"), str(REPO_ROOT / "benchmarks" / "gpu_suite.py"),
                           "--smoke", "--bundle", str(unpacked), "--json", str(out), "--work", str(tmp_path / "work"),
                           "--check-seconds", "600", "--stall-seconds", "600", "--minutes", "60"],
                          env=env, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-5000:]
    result = json.loads(out.read_text())
    assert all(c["ok"] for c in result["backend_check"]["checks"]), result["backend_check"]
    assert all(c["status"] == "ok" and c["sentences_per_second"] > 0 for c in result["translation"]), \
        [(c["name"], c["error"], c["log_tail"][-5:]) for c in result["translation"]]
    assert all(f["ok"] for f in result["fail_fast"]), result["fail_fast"]
    assert [row["status"] for row in result["pipeline"]["runs"]] == ["ok"] * 4, \
        [(row.get("error"), row.get("stderr_tail", [])[-20:]) for row in result["pipeline"]["runs"]]
    assert result["nmt_train"]["status"] == "ok", result["nmt_train"]  # fairseq-train, conversion, decoding
    assert len(result["encoders"]["cases"]) == 6
