"""Which cuBLAS CTranslate2 opens on a GPU, and how a machine without the CUDA 12 one gets it with no manual step.

CTranslate2's Linux wheel links the CUDA 12 runtime statically and ``dlopen()``s ``libcublas.so.12`` by that name at
its first GPU translation, not when a model loads. A CUDA 13 machine has ``libcublas.so.13`` only, and a CUDA 13
cuBLAS answers CTranslate2's calls when it is opened under the CUDA 12 name (docs/scaling.md, "GPU workers").

glibc reads ``LD_LIBRARY_PATH`` once, at process start, so setting it in-process changes nothing. What does reach a
later ``dlopen``: a library opened by a name without a slash is searched first in the ``DT_RPATH`` of the library
that calls ``dlopen``, and the wheel's ``libctranslate2-*.so`` has ``DT_RPATH=$ORIGIN``, where ``$ORIGIN`` is the
folder of the path it was loaded *by* (symbolic links are not resolved). So :func:`prepare_ctranslate2`, run before
``ctranslate2`` is first imported (:func:`translate.cpu_kernel.import_ctranslate2`, the project's one import of
it, calls :func:`process_route` first), makes a folder of links under the cache -- the
wheel's own libraries beside ``libcublas.so.12`` / ``libcublasLt.so.12`` pointing at the cuBLAS found -- and loads
``libctranslate2`` from there; the extension module then binds to that copy by its soname, and CTranslate2's
``dlopen("libcublas.so.12")`` finds the link. Nothing is installed, no environment variable is set, every process
(Beam's workers included) does it for itself when it first imports ``ctranslate2``, and a ``libcublas.so.12``
already on the library path (the Dockerfile's ``nvidia-cublas-cu12`` on ``LD_LIBRARY_PATH``) is left alone. A
``ctranslate2`` imported some other way first (a user's own code in the same process) bound to the wheel's own copy:
the route then says so (its ``problem``).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

CT2_CUBLAS = "libcublas.so.12"  # the name CTranslate2 4.x's wheel asks the loader for
CUBLAS_FIX = "pip install nvidia-cublas-cu12 and put its nvidia/cublas/lib folder on LD_LIBRARY_PATH"
# A decode error that names a missing cuBLAS (CTranslate2: "Library libcublas.so.12 is not found or cannot be loaded").
_CUBLAS_MESSAGE = "libcublas"
# Why a cuBLAS found cannot serve: libctranslate2 is loaded already, from the wheel's folder, not the links folder.
IMPORTED_ELSEWHERE = "ctranslate2 was imported in this process before paranmt's import_ctranslate2 could prepare it"
_NAMES = {12: ("libcublas.so.12", "libcublasLt.so.12"), 13: ("libcublas.so.13", "libcublasLt.so.13")}
# The CUDA toolkit's library folders under a root (/usr/local/cuda-13.0, $CUDA_HOME); CTranslate2's CUDA wheels are
# x86_64 only.
_TOOLKIT_FOLDERS = ("targets/x86_64-linux/lib", "lib64", "lib")
# The nvidia wheels PyTorch brings: CUDA 13's group every library in nvidia/cu13/lib, CUDA 12's have one folder each.
_WHEEL_FOLDERS = ("nvidia/cu13/lib", "nvidia/cublas/lib")


@dataclass(frozen=True, slots=True)
class Cublas:
    """A cuBLAS and its cuBLASLt (which it loads by soname) in one folder: the real files, links resolved."""

    major: int
    cublas: Path
    cublas_lt: Path

    def links(self) -> dict[str, Path]:
        """File name -> target: the CUDA 12 names CTranslate2 asks for, and the library's own sonames (a CUDA 13
        libcublas, opened through the links folder, looks for its libcublasLt.so.13 there)."""
        names = {*_NAMES[12], *_NAMES[self.major]}
        return {name: self.cublas_lt if "Lt" in name else self.cublas for name in sorted(names)}


@dataclass(frozen=True, slots=True)
class CublasRoute:
    """What :func:`prepare_ctranslate2` found and did in this process."""

    cublas: Cublas | None = None  # the cuBLAS found in the folders searched (None: none there)
    on_library_path: bool = False  # libcublas.so.12 opens by name already: nothing was done
    folder: Path | None = None  # the links folder libctranslate2 was loaded from
    problem: str | None = None  # why a cuBLAS found could not be linked


def _cache_dir(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("PARANMT_CACHE") or Path.home() / ".cache" / "paranmt").expanduser()


def library_folders(environ: Mapping[str, str], paths: Sequence[str]) -> list[Path]:
    """The existing folders where a cuBLAS may be, in order: the nvidia wheels beside the Python packages (the ones
    PyTorch loads), ``LD_LIBRARY_PATH``'s folders, then the CUDA toolkits (``$CUDA_HOME``, ``$CUDA_PATH``,
    ``/usr/local/cuda``, ``/usr/local/cuda-*`` newest first)."""
    folders = [Path(p) / sub for p in paths if p for sub in _WHEEL_FOLDERS]
    folders += [Path(p) for p in environ.get("LD_LIBRARY_PATH", "").split(":") if p]
    roots = [Path(environ[key]) for key in ("CUDA_HOME", "CUDA_PATH") if environ.get(key)]
    roots += [Path("/usr/local/cuda"), *sorted(Path("/usr/local").glob("cuda-*"), reverse=True)]
    folders += [root / sub for root in roots for sub in _TOOLKIT_FOLDERS]
    seen: set[Path] = set()
    found = []
    for folder in folders:
        if folder.is_dir() and (real := folder.resolve()) not in seen:
            seen.add(real)
            found.append(folder)
    return found


def find_cublas(folders: Iterable[Path]) -> Cublas | None:
    """The first cuBLAS CTranslate2 can use: a CUDA 12 one (the version it was built for) in any folder before a
    CUDA 13 one; each with its cuBLASLt in the same folder."""
    folders = list(folders)
    for major in (12, 13):
        for folder in folders:
            files = [folder / name for name in _NAMES[major]]
            if all(f.is_file() for f in files):
                return Cublas(major, files[0].resolve(), files[1].resolve())
    return None


def ctranslate2_libs() -> Path | None:
    """The wheel's folder of bundled libraries (``ctranslate2.libs`` beside the package), found without importing
    ``ctranslate2``; None where there is none (a build from source)."""
    spec = importlib.util.find_spec("ctranslate2")
    if spec is None or spec.origin is None:
        return None
    libs = Path(spec.origin).parent.parent / "ctranslate2.libs"
    return libs if any(libs.glob("libctranslate2*.so*")) else None


def link_folder(cublas: Cublas, wheel_libs: Path, cache: Path) -> Path:
    """A folder under ``cache`` of links to the wheel's libraries and to ``cublas`` under the names CTranslate2 asks
    for. Named by a digest of its links, so processes that make it at once make the same links (each one atomic)."""
    targets = {p.name: p.resolve() for p in sorted(wheel_libs.iterdir()) if p.is_file()}
    targets.update(cublas.links())
    digest = hashlib.sha256("\n".join(f"{n} {t}" for n, t in sorted(targets.items())).encode()).hexdigest()[:16]
    folder = cache / "ctranslate2-cuda" / digest
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in targets.items():
        link = folder / name
        if link.is_symlink() and Path(os.readlink(link)) == target:
            continue
        temporary = folder / f".{name}.{os.getpid()}"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(target)
        temporary.replace(link)
    return folder


def opens(name: str) -> bool:
    """The dynamic loader finds ``name`` on its search path (``LD_LIBRARY_PATH``, ``ld.so.cache``, the system
    folders): it opens it, as CTranslate2 would."""
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def prepare_ctranslate2(environ: Mapping[str, str] = os.environ, paths: Sequence[str] = sys.path,
                        cache: Path | None = None) -> CublasRoute:
    """Make CTranslate2 open the cuBLAS found (see the module's docstring) where ``libcublas.so.12`` does not open by
    name; a no-op where no cuBLAS is found or the name opens already. Must run before ``ctranslate2`` is first
    imported; never raises (what went wrong is the route's ``problem``, said when a model loads on the GPU)."""
    cublas = find_cublas(library_folders(environ, paths))
    if cublas is None:
        return CublasRoute()
    if opens(CT2_CUBLAS):
        return CublasRoute(cublas, on_library_path=True)
    wheel_libs = ctranslate2_libs()
    if wheel_libs is None:
        return CublasRoute(cublas, problem="this CTranslate2 is not the PyPI wheel (no ctranslate2.libs folder)")
    if "ctranslate2" in sys.modules:
        return CublasRoute(cublas, problem=IMPORTED_ELSEWHERE)
    cache = cache or _cache_dir(environ)
    try:
        folder = link_folder(cublas, wheel_libs, cache)
        ctypes.CDLL(str(next(folder.glob("libctranslate2*.so*"))))  # ctranslate2's extension binds to this copy
    except OSError as error:
        return CublasRoute(cublas, problem=f"cannot link it in {cache}: {error}")
    return CublasRoute(cublas, folder=folder)


@functools.cache
def process_route() -> CublasRoute:
    """This process's route: prepared by the first call, which :func:`translate.cpu_kernel.import_ctranslate2` makes
    before it imports ``ctranslate2`` (or a check of the cuBLAS CTranslate2 will open makes before that)."""
    return prepare_ctranslate2()


def cublas_line(route: CublasRoute) -> tuple[bool, str]:
    """``(True, which cuBLAS CTranslate2 opens)`` for an info line, or ``(False, why it has none and the fix)``."""
    cublas = route.cublas
    if route.folder is not None and cublas is not None:
        return True, (f"CTranslate2 opens the CUDA {cublas.major} cuBLAS {cublas.cublas} as {CT2_CUBLAS} "
                      f"(links in {route.folder})")
    if route.on_library_path or opens(CT2_CUBLAS):
        return True, f"CTranslate2 opens {CT2_CUBLAS} from the library path"
    if cublas is not None:
        return False, (f"CTranslate2 cannot open the CUDA {cublas.major} cuBLAS {cublas.cublas}: {route.problem}; "
                       f"{CUBLAS_FIX}")
    return False, (f"CTranslate2 needs cuBLAS on the GPU: {CT2_CUBLAS} is not on the library path and no CUDA 12 or "
                   f"13 cuBLAS is in the nvidia wheels or a CUDA toolkit here; {CUBLAS_FIX}")


def cublas_hint(message: str) -> str:
    """The fix to append to a decoding error that names a missing cuBLAS; empty for any other error."""
    return f" -- {CUBLAS_FIX}" if _CUBLAS_MESSAGE in message and "not found" in message else ""
