"""translate.cpu_kernel: the variables each setting sets before CTranslate2 loads, the refusal once it has loaded with
others, and the kernel's identity (the portable pin names no vendor; the fastest kernel names the vendor's path)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from configs.schema import TranslateConfig
from tests.support.repo import REPO_ROOT
from translate.cpu_kernel import (
    FASTEST,
    PORTABLE,
    PORTABLE_ENVIRONMENT,
    CpuInfo,
    KernelMismatch,
    apply_cpu_kernel,
    cpu_info,
    run_kernel,
    translation_kernel,
)

INTEL = CpuInfo("GenuineIntel", "Intel(R) Xeon(R) Processor",
                frozenset(["sse4_1", "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni",
                           "avx_vnni"]), "x86_64")
AMD_ZEN2 = CpuInfo("AuthenticAMD", "AMD EPYC 7B12", frozenset(["sse4_1", "avx", "avx2"]), "x86_64")
AMD_ZEN4 = CpuInfo("AuthenticAMD", "AMD EPYC 9B14",
                   frozenset(["sse4_1", "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni"]),
                   "x86_64")
ARM = CpuInfo("unknown", "Neoverse-N1", frozenset(["fp", "asimd"]), "aarch64")


def test_portable_sets_the_pin_and_fastest_unsets_it():
    environ = {"PATH": "/bin"}
    apply_cpu_kernel(PORTABLE, environ, loaded=False, cpu=INTEL)
    assert environ == {"PATH": "/bin", **PORTABLE_ENVIRONMENT}
    apply_cpu_kernel(PORTABLE, environ, loaded=True, cpu=INTEL)  # already so: nothing to do, even once loaded
    apply_cpu_kernel(FASTEST, environ, loaded=False, cpu=INTEL)
    assert environ == {"PATH": "/bin"}


def test_a_shell_value_is_overridden_with_one_warning(caplog):
    environ = {"CT2_USE_MKL": "0"}
    apply_cpu_kernel(FASTEST, environ, loaded=False, cpu=INTEL)
    assert environ == {} and "ignoring CT2_USE_MKL=0 from the environment" in caplog.text


@pytest.mark.parametrize(("environ", "kernel"), [({}, PORTABLE), (dict(PORTABLE_ENVIRONMENT), FASTEST),
                                                 ({"CT2_USE_MKL": "0"}, FASTEST)])
def test_another_kernel_once_loaded_is_refused_in_one_line(environ, kernel):
    before = dict(environ)
    with pytest.raises(KernelMismatch) as refused:
        apply_cpu_kernel(kernel, environ, loaded=True, cpu=INTEL)
    assert "\n" not in str(refused.value) and f"translate.cpu_kernel {kernel}" in str(refused.value)
    assert "new process" in str(refused.value) and environ == before  # nothing changed


def test_the_portable_identity_names_the_pin_on_every_x86_vendor():
    kernels = {cpu.model: translation_kernel(PORTABLE, "cpu", "auto", "auto", cpu) for cpu in (INTEL, AMD_ZEN2,
                                                                                                AMD_ZEN4)}
    assert len({tuple(sorted(k.items())) for k in kernels.values()}) == 1
    assert kernels[INTEL.model] == {"setting": "portable", "device": "cpu", "backend": "ctranslate2",
                                    "compute_type": "auto", "vendor": "any x86-64 with AVX2", "gemm": "oneDNN",
                                    "isa": "AVX2", "ct2_isa": "AVX2"}


def test_the_fastest_identity_names_the_vendors_path():
    intel, zen2, zen4 = (translation_kernel(FASTEST, "cpu", "ctranslate2", "int8", cpu)
                         for cpu in (INTEL, AMD_ZEN2, AMD_ZEN4))
    assert (intel["vendor"], intel["gemm"], intel["isa"]) == ("GenuineIntel", "MKL", "AVX512_CORE_VNNI")
    assert (zen2["vendor"], zen2["gemm"], zen2["isa"]) == ("AuthenticAMD", "oneDNN", "AVX2")
    assert zen4["isa"] == "AVX512_CORE_VNNI" and len({str(k) for k in (intel, zen2, zen4)}) == 3
    assert {k["ct2_isa"] for k in (intel, zen2, zen4)} == {"AVX2"}  # CTranslate2 never picks AVX-512 by itself


def test_where_the_pin_cannot_run_the_cpus_own_kernels_are_used_and_said(caplog):
    environ: dict[str, str] = {}
    apply_cpu_kernel(PORTABLE, environ, loaded=False, cpu=ARM)
    assert environ == {} and "lacks" in caplog.text
    assert translation_kernel(PORTABLE, "cpu", "auto", "auto", ARM)["gemm"] == "oneDNN"
    assert translation_kernel(PORTABLE, "cpu", "auto", "auto", ARM)["setting"] == "portable"


def test_on_a_gpu_or_another_backend_the_setting_does_not_apply():
    assert run_kernel(TranslateConfig(device="cuda", cpu_kernel="portable", compute_type="float16")) == {
        "device": "cuda", "backend": "auto", "compute_type": "float16"}
    assert "setting" not in translation_kernel(PORTABLE, "cpu", "fairseq", "float32", INTEL)
    assert run_kernel(TranslateConfig(device="auto", cpu_kernel="portable"))["setting"] == "portable"


def test_a_translator_refuses_a_second_kernel_in_one_process():
    """Two translators of two kernels in one process: the second is refused in one line, before it loads (a process
    of its own: CTranslate2 reads its kernels once)."""
    script = ("from configs.schema import TranslateConfig\nfrom translate.loading import load_translator\n"
              "from translate.cpu_kernel import KernelMismatch\n"
              "print(load_translator(TranslateConfig(device='cpu', cpu_kernel='portable')).translate(['Ahoj.'])[0]"
              ".status.value)\n"
              "try:\n    load_translator(TranslateConfig(device='cpu', cpu_kernel='fastest'))\n"
              "except KernelMismatch as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0] == "ok", done.stderr[-2000:]
    assert lines[1].startswith("translate.cpu_kernel fastest: CTranslate2 is already loaded in this process")
    assert "CT2_USE_MKL=0" in lines[1]


def test_importing_translate_loads_no_ctranslate2_and_its_one_import_prepares_it_first():
    """Every module of ``translate`` imports without loading CTranslate2 or preparing anything for it; the one import,
    :func:`import_ctranslate2`, prepares where it finds cuBLAS and sets the kernel asked for, then loads it (a process
    of its own)."""
    script = ("import pkgutil, importlib, os, sys, translate\n"
              "from translate.cuda_libraries import process_route\n"
              "for info in pkgutil.iter_modules(translate.__path__):\n"
              "    importlib.import_module(f'translate.{info.name}')\n"
              "print('ctranslate2' in sys.modules, process_route.cache_info().currsize)\n"
              "from translate.cpu_kernel import import_ctranslate2\n"
              "ctranslate2 = import_ctranslate2('portable')\n"
              "print('ctranslate2' in sys.modules, process_route.cache_info().currsize,\n"
              "      os.environ.get('CT2_USE_MKL'))\n")
    environ = {k: v for k, v in os.environ.items() if k not in PORTABLE_ENVIRONMENT}
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
                          env={**environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    pinned = "0" if cpu_info().x86_avx2 else "None"
    assert done.stdout.splitlines()[-2:] == ["False 0", f"True 1 {pinned}"]
