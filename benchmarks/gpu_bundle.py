"""Pack what ``benchmarks/gpu_suite.py`` needs on a GPU machine that has no network and no ``../shared``.

    .venv/bin/python benchmarks/gpu_bundle.py --python /path/to/python3.12 [--out .gpu]

A GPU machine with network access and ``../shared`` beside the repository needs none of this: install paranmt
there and run ``benchmarks/gpu_suite.py`` directly. This script is for an offline machine whose image already has
Python with a CUDA PyTorch (e.g. an H100 image with Python 3.12 and PyTorch cu130) but none of paranmt's other
dependencies. It writes one archive, ``<out>/bundle.tar.xz``, holding:

* ``site/``: paranmt's dependencies that such an image lacks, unpacked from the registry's wheels for the target
  Python (``--python-version``): CTranslate2, Apache Beam and its run-time needs, sacremoses, pydantic, subword-nmt,
  protobuf, and fairseq with its Cython parts compiled by ``--python`` (an interpreter of the target version with
  Cython and NumPy; fairseq's PyTorch C++ extensions are left out: no translation path uses them). Debug symbols
  are stripped from the shared libraries and Beam's examples and tests are dropped, so the archive fits a small
  transfer;
* ``data/``: the Czech–English bitext (every pair of ``../shared/data/bitext``), the Multi30k captions of the
  first 15,000 images (the trainer's pairs), the GloVe vectors of every word of the bitext's English side (the
  pipeline's PARAGRAM-PHRASE scorer looks up the words of the English side and of the translations: only a
  translation's word that occurs in no English line is missing, so the scores are nearly the full table's and the
  work per pair the same), and ``../shared/models/small-cs-en`` for the fairseq backend, its matrices stored as
  int8 with a scale per row (the device restores float16; the CTranslate2 model is the repository's own).

The device command unpacks it and puts ``site/`` first on ``PYTHONPATH``; ``gpu_suite.py --bundle DIR`` reads
``data/`` from it.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.text import TextProcessor  # noqa: E402
from core.word_vectors import KUMO_INDEX, KUMO_VECTORS, load_kumo  # noqa: E402

SHARED = REPO.parent / "shared"
CAPTION_IMAGES = 15_000  # 60,000 caption pairs for the trainer

# What the GPU image lacks, pinned to paranmt's own versions where it pins them; Beam's needs from its metadata.
WHEELS = [
    "ctranslate2==4.8.5", "apache-beam==2.77.0", "sacremoses==0.2.0", "pydantic==2.14.3", "pydantic-core==2.50.4",
    "annotated-types==0.8.0", "typing-inspection==0.4.5", "subword-nmt==0.3.8", "mock==5.2.0", "protobuf==6.33.6",
    "hydra-core==1.3.2", "omegaconf==2.3.0", "bitarray==3.12.3", "fastavro==1.13.1", "fasteners==0.20",
    "httplib2==0.32.1", "jsonpickle==4.1.4", "objsize==0.7.1", "proto-plus==1.29.0", "beartype==0.22.9",
    "zstandard==0.25.0", "pymongo==4.20.1", "cryptography==50.0.2", "cffi==2.1.1", "pycparser==3.12",
    "pyparsing==3.3.3",
]
SDISTS = ["antlr4-python3-runtime==4.9.3", "fairseq-fixed==0.12.3.1"]
PLATFORMS = ["manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64", "manylinux1_x86_64"]


def download(cache: Path, python_version: str) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    platform_args = [arg for p in PLATFORMS for arg in ("--platform", p)]
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                    "--python-version", python_version, "--implementation", "cp", *platform_args, "-d", str(cache),
                    *WHEELS], check=True)
    # fairseq's metadata step imports torch: the build environment must be this one.
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary=:all:",
                    "--no-build-isolation", "-d", str(cache), *SDISTS], check=True)


def unpack_wheels(cache: Path, site: Path) -> None:
    for wheel in sorted(cache.glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)


def unpack_sdists(cache: Path, site: Path, python: Path, build: Path) -> None:
    """antlr4's pure-Python package; fairseq's packages with data_utils_fast, token_block_utils_fast and libbleu
    compiled by ``python`` (the target interpreter)."""
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
    subprocess.run([str(python), setup.name, "build_ext", "--inplace", "-q"], cwd=fairseq, check=True,
                   stdout=subprocess.DEVNULL)
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
    float32 scale per row (the way CTranslate2's int8 model stores them; :func:`gpu_suite.unpack_small_model`
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", type=Path, required=True,
                        help="an interpreter of the GPU image's Python version, with Cython and NumPy 2")
    parser.add_argument("--python-version", default="3.12")
    parser.add_argument("--out", type=Path, default=REPO / ".gpu")
    args = parser.parse_args(argv)
    if not SHARED.is_dir():
        print(f"error: {SHARED} is absent: the bundle packs its bitext, captions and model", file=sys.stderr)
        return 2
    work = args.out / "build"
    shutil.rmtree(work, ignore_errors=True)
    site, data = work / "bundle" / "site", work / "bundle" / "data"
    site.mkdir(parents=True)
    download(args.out / "wheels", args.python_version)
    unpack_wheels(args.out / "wheels", site)
    unpack_sdists(args.out / "wheels", site, args.python, work / "src")
    slim(site)
    bitext = SHARED / "data" / "bitext"
    captions = SHARED / "data" / "paraphrase" / "multi30k-captions"
    shutil.copytree(bitext, data / "bitext", ignore=shutil.ignore_patterns("*.images.txt"))
    (data / "captions").mkdir(parents=True)
    for k in range(1, 6):  # the trainer's pairs come from the first images
        lines = (captions / f"train.{k}.en").read_text(encoding="utf-8").splitlines(keepends=True)
        (data / "captions" / f"train.{k}.en").write_text("".join(lines[:CAPTION_IMAGES]), encoding="utf-8")
    words = glove_subset(sorted(bitext.glob("*.en")), data / "glove")
    small_model(data / "small-cs-en")
    archive = args.out / "bundle.tar.xz"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(work / "bundle", arcname=".")
    subprocess.run(["xz", "-T2", "-6", "-c"], input=buffer.getvalue(), stdout=archive.open("wb"), check=True)
    print(f"{archive}: {archive.stat().st_size / 2**20:.1f} MiB ({words:,} GloVe words)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
