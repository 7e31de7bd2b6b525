"""Where CTranslate2 finds cuBLAS on a GPU (translate.cuda_libraries), on the CPU: the detection over fake library
folders, the links folder, the lines said at load, and the mechanism end to end -- a library opened by bare name from
inside libctranslate2 is found in the links folder when libctranslate2 was loaded from there."""

from __future__ import annotations

import _ctypes
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from configs.schema import TranslateConfig
from tests.support.repo import REPO_ROOT
from tests.support.shared_data import small_cs_en
from translate.card import ModelDir
from translate.cpu_kernel import FASTEST, import_ctranslate2
from translate.cuda_libraries import (
    CT2_CUBLAS,
    CUBLAS_FIX,
    IMPORTED_ELSEWHERE,
    Cublas,
    CublasRoute,
    ctranslate2_libs,
    cublas_hint,
    cublas_line,
    find_cublas,
    library_folders,
    link_folder,
    opens,
    prepare_ctranslate2,
)
from translate.loading import check_libraries
from translate.translator import BackendUnavailable

TOOLKIT_LIB = "targets/x86_64-linux/lib"


def fake_cublas(folder: Path, major: int, *, versioned: bool = True, lt: bool = True) -> Path:
    """``libcublas.so.<major>`` (and its Lt) in ``folder`` as a CUDA toolkit lays them out: the soname a link to the
    versioned file (``versioned``), or the file itself, as the nvidia wheels have it."""
    folder.mkdir(parents=True, exist_ok=True)
    for stem in ("libcublas", "libcublasLt") if lt else ("libcublas",):
        soname = folder / f"{stem}.so.{major}"
        if versioned:
            real = folder / f"{stem}.so.{major}.1.0.3"
            real.write_bytes(b"\x7fELF")
            soname.symlink_to(real.name)
        else:
            soname.write_bytes(b"\x7fELF")
    return folder


def test_library_folders_in_order_wheels_then_library_path_then_toolkits(tmp_path):
    site = tmp_path / "site-packages"
    for sub in ("nvidia/cu13/lib", "nvidia/cublas/lib"):
        (site / sub).mkdir(parents=True)
    (tmp_path / "ld").mkdir()
    (tmp_path / "cuda" / TOOLKIT_LIB).mkdir(parents=True)
    (tmp_path / "cuda" / "lib64").mkdir()
    environ = {"LD_LIBRARY_PATH": f"{tmp_path / 'ld'}:{tmp_path / 'absent'}::{site / 'nvidia/cublas/lib'}",
               "CUDA_HOME": str(tmp_path / "cuda")}
    folders = library_folders(environ, [str(site), "", str(tmp_path / "nowhere")])
    expected = [site / "nvidia/cu13/lib", site / "nvidia/cublas/lib", tmp_path / "ld",
                tmp_path / "cuda" / TOOLKIT_LIB, tmp_path / "cuda" / "lib64"]
    assert folders[:len(expected)] == expected  # each once; absent folders left out; /usr/local/cuda* may follow
    assert all(f.is_dir() for f in folders)


def test_find_cublas_prefers_cuda_12_and_needs_both_libraries(tmp_path):
    toolkit = fake_cublas(tmp_path / "cuda-13" / TOOLKIT_LIB, 13)
    found = find_cublas([toolkit])
    assert found == Cublas(13, (toolkit / "libcublas.so.13.1.0.3").resolve(),
                           (toolkit / "libcublasLt.so.13.1.0.3").resolve())
    wheel = fake_cublas(tmp_path / "site" / "nvidia" / "cublas" / "lib", 12, versioned=False)
    assert find_cublas([toolkit, wheel]) == Cublas(12, wheel / "libcublas.so.12", wheel / "libcublasLt.so.12")
    assert find_cublas([fake_cublas(tmp_path / "half", 13, lt=False)]) is None  # libcublas needs its Lt
    assert find_cublas([tmp_path / "empty"]) is None


def test_the_links_folder_names_cuda_13_as_12_beside_the_wheels_libraries(tmp_path):
    toolkit = fake_cublas(tmp_path / "cuda" / TOOLKIT_LIB, 13)
    cublas = find_cublas([toolkit])
    wheel_libs = tmp_path / "ctranslate2.libs"
    wheel_libs.mkdir()
    (wheel_libs / "libctranslate2-abc.so.4.8.5").write_bytes(b"\x7fELF")
    (wheel_libs / "libgomp-def.so.1.0.0").write_bytes(b"\x7fELF")
    folder = link_folder(cublas, wheel_libs, tmp_path / "cache")
    links = {p.name: p.resolve() for p in folder.iterdir()}
    assert links == {
        "libctranslate2-abc.so.4.8.5": wheel_libs / "libctranslate2-abc.so.4.8.5",
        "libgomp-def.so.1.0.0": wheel_libs / "libgomp-def.so.1.0.0",
        "libcublas.so.12": toolkit / "libcublas.so.13.1.0.3",
        "libcublasLt.so.12": toolkit / "libcublasLt.so.13.1.0.3",
        "libcublas.so.13": toolkit / "libcublas.so.13.1.0.3",  # its own soname: libcublas looks for its Lt here
        "libcublasLt.so.13": toolkit / "libcublasLt.so.13.1.0.3",
    }
    assert all(p.is_symlink() for p in folder.iterdir())
    assert link_folder(cublas, wheel_libs, tmp_path / "cache") == folder  # again (another worker): the same folder
    assert sorted(p.name for p in folder.iterdir()) == sorted(links)


def test_where_cublas_comes_from_is_one_line(tmp_path):
    cublas = Cublas(13, tmp_path / "libcublas.so.13.1.0.3", tmp_path / "libcublasLt.so.13.1.0.3")
    usable, line = cublas_line(CublasRoute(cublas, folder=tmp_path / "links"))
    assert usable and line == (f"CTranslate2 opens the CUDA 13 cuBLAS {cublas.cublas} as libcublas.so.12 "
                               f"(links in {tmp_path / 'links'})")
    assert cublas_line(CublasRoute(cublas, on_library_path=True)) == \
        (True, "CTranslate2 opens libcublas.so.12 from the library path")
    usable, line = cublas_line(CublasRoute(cublas, problem=IMPORTED_ELSEWHERE))
    assert not usable and IMPORTED_ELSEWHERE in line and line.endswith(CUBLAS_FIX)
    assert "\n" not in line


def test_no_cublas_anywhere_is_one_error_line_before_any_work(tmp_path, monkeypatch):
    route = prepare_ctranslate2({}, [], tmp_path)
    if route.cublas is not None or opens(CT2_CUBLAS):
        pytest.skip("this machine has a cuBLAS in a CUDA toolkit or on the library path")
    usable, line = cublas_line(route)
    assert not usable and line == (
        "CTranslate2 needs cuBLAS on the GPU: libcublas.so.12 is not on the library path and no CUDA 12 or 13 cuBLAS "
        "is in the nvidia wheels or a CUDA toolkit here; pip install nvidia-cublas-cu12 and put its "
        "nvidia/cublas/lib folder on LD_LIBRARY_PATH")
    assert not (tmp_path / "ctranslate2-cuda").exists()
    # `paranmt run` checks it on the launcher (pipeline.stages.backtranslate.checked_model_id), before any work
    monkeypatch.setattr("translate.loading.process_route", lambda: route)
    model = ModelDir(small_cs_en())
    with pytest.raises(BackendUnavailable) as error:
        check_libraries(TranslateConfig(model=model.root, device="cuda", backend="ctranslate2"), model)
    assert str(error.value) == line
    check_libraries(TranslateConfig(model=model.root, device="cpu", backend="ctranslate2"), model)  # CPU: no cuBLAS


@pytest.mark.skipif(ctranslate2_libs() is None or opens(CT2_CUBLAS), reason="needs the wheel and no CUDA 12 cuBLAS")
def test_a_cublas_that_cannot_be_linked_is_one_error_line_naming_why(tmp_path, monkeypatch):
    environ = {"CUDA_HOME": str(tmp_path / "cuda")}
    fake_cublas(tmp_path / "cuda" / TOOLKIT_LIB, 13)
    import_ctranslate2(FASTEST)  # this process has CTranslate2 loaded (from the wheel's folder: no cuBLAS here)
    route = prepare_ctranslate2(environ, [], tmp_path / "cache")
    assert route.cublas is not None and route.folder is None and not (tmp_path / "cache").exists()
    usable, line = cublas_line(route)
    assert not usable and line == (f"CTranslate2 cannot open the CUDA 13 cuBLAS {route.cublas.cublas}: "
                                   f"{IMPORTED_ELSEWHERE}; {CUBLAS_FIX}")
    monkeypatch.delitem(sys.modules, "ctranslate2")  # as if it had not been
    (tmp_path / "a-file").write_text("")
    route = prepare_ctranslate2(environ, [], tmp_path / "a-file")
    usable, line = cublas_line(route)
    assert not usable and line.startswith(f"CTranslate2 cannot open the CUDA 13 cuBLAS {route.cublas.cublas}: "
                                          f"cannot link it in {tmp_path / 'a-file'}: ")
    assert line.endswith(CUBLAS_FIX) and "\n" not in line


def test_a_missing_cublas_in_a_decoding_error_gets_the_fix():
    assert cublas_hint("Library libcublas.so.12 is not found or cannot be loaded") == f" -- {CUBLAS_FIX}"
    assert cublas_hint("CUDA failed with error out of memory") == ""


def _run_python(script: str, environ: dict[str, str]) -> subprocess.CompletedProcess:
    """``script`` in a fresh interpreter from the repository root, with ``environ`` over this one's (no
    ``LD_LIBRARY_PATH`` or ``CUDA_PATH`` unless given: the folders searched are the test's)."""
    base = {key: value for key, value in os.environ.items() if key not in ("LD_LIBRARY_PATH", "CUDA_PATH")}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=REPO_ROOT, capture_output=True,
                          env={**base, "PYTHONPATH": str(REPO_ROOT), **environ}, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_a_cuda_12_cublas_on_the_library_path_is_used_as_it_is(tmp_path):
    """The Dockerfile's route: nvidia-cublas-cu12's folder on LD_LIBRARY_PATH (here a stand-in: copies of a real
    library under the cuBLAS names, which the loader opens). It wins over a CUDA 13 toolkit, and nothing is linked."""
    cu12 = tmp_path / "site-packages" / "nvidia" / "cublas" / "lib"
    cu12.mkdir(parents=True)
    for name in ("libcublas.so.12", "libcublasLt.so.12"):
        shutil.copy(_ctypes.__file__, cu12 / name)
    fake_cublas(tmp_path / "cuda-13.0" / TOOLKIT_LIB, 13)
    done = _run_python("""
        from translate.cuda_libraries import process_route, cublas_line
        route = process_route()
        print(route.cublas.major, route.on_library_path, route.folder)
        print(cublas_line(route)[1])
    """, {"LD_LIBRARY_PATH": str(cu12), "CUDA_HOME": str(tmp_path / "cuda-13.0"),
          "PARANMT_CACHE": str(tmp_path / "cache")})
    assert done.stdout.splitlines()[-2:] == ["12 True None", "CTranslate2 opens libcublas.so.12 from the library path"]
    assert not (tmp_path / "cache").exists()


@pytest.mark.skipif(ctranslate2_libs() is None, reason="needs the ctranslate2 wheel's ctranslate2.libs folder")
def test_ctranslate2_opens_bare_names_from_the_links_folder(tmp_path):
    """End to end in a fresh process: a fake CUDA 13 toolkit ($CUDA_HOME), the project's one import of CTranslate2
    (``import_ctranslate2``) links and loads libctranslate2 from the links folder, and a library that libctranslate2
    itself opens by bare name at run time is looked up, and opened, there first. On the CPU the one such name it
    opens is the driver's (``libcuda.so.1``, by the CUDA runtime linked into it, when CUDA devices are counted), so
    the test adds that link -- to a real library, a copy of Python's _ctypes -- beside the cuBLAS ones; cuBLAS itself
    is opened the same way, by the same library, at the first GPU translation. The loader's own trace (LD_DEBUG)
    shows where it searched and what it opened."""
    toolkit = fake_cublas(tmp_path / "cuda-13.0" / TOOLKIT_LIB, 13)
    driver = shutil.copy(_ctypes.__file__, tmp_path / "not-a-driver.so")
    done = _run_python(f"""
        import os
        from translate.cpu_kernel import import_ctranslate2
        from translate.cuda_libraries import process_route, cublas_line
        ctranslate2 = import_ctranslate2("fastest")
        route = process_route()
        print(route.folder)
        print(cublas_line(route)[1])
        os.symlink({str(driver)!r}, route.folder / "libcuda.so.1")  # opened at run time, not at the import
        ctranslate2.get_cuda_device_count()
    """, {"CUDA_HOME": str(tmp_path / "cuda-13.0"), "PARANMT_CACHE": str(tmp_path / "cache"), "LD_DEBUG": "libs"})
    folder_line, info = done.stdout.splitlines()[-2:]
    folder = Path(folder_line)
    if folder_line == "None":
        pytest.skip(f"a CUDA 12 cuBLAS opens here already: {info}")
    assert folder.parent == tmp_path / "cache" / "ctranslate2-cuda"
    assert info == (f"CTranslate2 opens the CUDA 13 cuBLAS {toolkit / 'libcublas.so.13.1.0.3'} as libcublas.so.12 "
                    f"(links in {folder})")
    assert os.readlink(folder / "libcublas.so.12") == str(toolkit / "libcublas.so.13.1.0.3")
    library = next(folder.glob("libctranslate2*.so*")).name
    trace = done.stderr
    assert f"search path={folder}\t\t(RPATH from file {folder}/{library})" in trace  # $ORIGIN: the links folder
    assert f"trying file={folder}/libcuda.so.1" in trace
    assert f"calling init: {folder}/libcuda.so.1" in trace  # found and opened through the link


@pytest.mark.skipif(ctranslate2_libs() is None or opens(CT2_CUBLAS), reason="needs the wheel and no CUDA 12 cuBLAS")
def test_ctranslate2_imported_around_the_one_import_is_named_as_the_problem(tmp_path):
    """A process that imports ``ctranslate2`` itself before the project's one import (a user's script): libctranslate2
    is bound to the wheel's folder, so the cuBLAS found cannot serve, and the route says why instead of linking."""
    fake_cublas(tmp_path / "cuda-13.0" / TOOLKIT_LIB, 13)
    done = _run_python("""
        import ctranslate2
        from translate.cpu_kernel import import_ctranslate2
        from translate.cuda_libraries import process_route
        assert import_ctranslate2("fastest") is ctranslate2
        print(process_route().problem)
    """, {"CUDA_HOME": str(tmp_path / "cuda-13.0"), "PARANMT_CACHE": str(tmp_path / "cache")})
    assert done.stdout.splitlines()[-1] == IMPORTED_ELSEWHERE
    assert not (tmp_path / "cache").exists()
