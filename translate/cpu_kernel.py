"""Which CPU kernels CTranslate2 translates with (``translate.cpu_kernel``), set before it loads, the kernel's
identity as a run records it, and the one import of ``ctranslate2`` (:func:`import_ctranslate2`).

CTranslate2's int8 GEMM runs through Intel MKL on an Intel CPU and through oneDNN elsewhere, each at the best
instruction set the CPU has, and the kernels round differently: the bundled sample gives 22 copies on an AVX-512
Intel Xeon where an AVX2 AMD EPYC gives 24 (docs/translate-cpu.md). Two settings:

* ``fastest``: the vendor's path as CTranslate2 picks it (MKL on Intel, oneDNN elsewhere, the CPU's best ISA).
* ``portable``: oneDNN without MKL, capped at AVX2, and CTranslate2's own kernels at AVX2
  (:data:`PORTABLE_ENVIRONMENT`): the same hypotheses on every x86-64 CPU with AVX2, Intel or AMD.

CTranslate2 and oneDNN read these variables once, when ``ctranslate2`` is imported (measured: a variable set after
the import changes nothing), so :func:`import_ctranslate2`, the one import of ``ctranslate2``, sets them before it
(:func:`apply_cpu_kernel`), in every process that translates (the launcher, each Beam worker, ``paranmt
translate``, ``paranmt evaluate-nmt``), and refuses, in one line, a kernel other than the one this process has
already loaded. On a GPU the setting does not apply.
"""

from __future__ import annotations

import functools
import logging
import os
import platform
import sys
from collections.abc import MutableMapping
from dataclasses import dataclass
from types import ModuleType

from configs.schema import TranslateConfig
from paranmt.core.errors import ParanmtError
from translate.cuda_libraries import process_route

__all__ = ["FASTEST", "PORTABLE", "PORTABLE_ENVIRONMENT", "CpuInfo", "KernelMismatch", "apply_cpu_kernel",
           "cpu_info", "import_ctranslate2", "run_kernel", "translation_kernel"]

log = logging.getLogger(__name__)

FASTEST, PORTABLE = "fastest", "portable"
#: The portable pin. CT2_USE_MKL=0: oneDNN on Intel too; ONEDNN_MAX_CPU_ISA=AVX2: no AVX-512 nor VNNI kernels (each
#: changes a few of 400 sample translations on an AVX-512 Intel); CT2_FORCE_CPU_ISA=AVX2: CTranslate2's own
#: kernels (softmax, layer norm...) at AVX2, as CTranslate2 picks them by itself today (AVX-512 changes hypotheses too).
PORTABLE_ENVIRONMENT = {"CT2_USE_MKL": "0", "ONEDNN_MAX_CPU_ISA": "AVX2", "CT2_FORCE_CPU_ISA": "AVX2"}
_X86 = ("x86_64", "amd64", "i686", "i386")


class KernelMismatch(ParanmtError, RuntimeError):
    """CTranslate2 is already loaded in this process with other kernel settings than the ones asked for."""


@dataclass(frozen=True, slots=True)
class CpuInfo:
    """What the kernels depend on: the vendor (GenuineIntel, AuthenticAMD, ...), the model name, the ISA flags."""

    vendor: str
    model: str
    flags: frozenset[str]
    machine: str

    @property
    def x86_avx2(self) -> bool:
        """The portable pin runs here: an x86-64 CPU with AVX2."""
        return self.machine.lower() in _X86 and "avx2" in self.flags

    def best_isa(self) -> str:
        """The instruction set MKL and oneDNN pick here by themselves (oneDNN's names)."""
        for name, needs in (("AVX512_CORE_AMX", {"amx_int8", "avx512f"}), ("AVX512_CORE_VNNI", {"avx512_vnni"}),
                            ("AVX512_CORE", {"avx512f", "avx512bw", "avx512vl", "avx512dq"}),
                            ("AVX2_VNNI", {"avx2", "avx_vnni"}), ("AVX2", {"avx2"}), ("AVX", {"avx"})):
            if needs <= self.flags:
                return name
        return "SSE41" if self.machine.lower() in _X86 else self.machine


@functools.cache
def cpu_info() -> CpuInfo:
    """This machine's CPU, from /proc/cpuinfo (Linux); elsewhere from :mod:`platform`, with no flags."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if not line.strip():
                    break  # the first processor's block is enough
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return CpuInfo(vendor=fields.get("vendor_id", platform.processor() or "unknown"),
                   model=fields.get("model name", platform.processor() or "unknown"),
                   flags=frozenset(fields.get("flags", "").split()), machine=platform.machine())


def _wanted(kernel: str, cpu: CpuInfo) -> dict[str, str | None]:
    """The value of each variable of the pin for ``kernel`` (None: unset); a CPU the pin cannot run on (not x86-64,
    no AVX2) runs its own kernels."""
    pinned = kernel == PORTABLE and cpu.x86_avx2
    return {name: value if pinned else None for name, value in PORTABLE_ENVIRONMENT.items()}


def apply_cpu_kernel(kernel: str, environ: MutableMapping[str, str] | None = None, loaded: bool | None = None,
                     cpu: CpuInfo | None = None) -> None:
    """Set the variables of :data:`PORTABLE_ENVIRONMENT` for ``kernel`` (``fastest`` unsets them) before
    CTranslate2 loads; a no-op where they already hold. Where CTranslate2 is already loaded (``loaded``, default:
    imported in this process) with other values, :class:`KernelMismatch`: it reads them once, so this process
    cannot switch. ``environ`` defaults to ``os.environ``."""
    environ = os.environ if environ is None else environ
    loaded = "ctranslate2" in sys.modules if loaded is None else loaded
    cpu = cpu or cpu_info()
    if kernel == PORTABLE and not cpu.x86_avx2:
        _say_no_pin(cpu.machine)
    wanted = _wanted(kernel, cpu)
    current = {name: environ.get(name) for name in wanted}
    if current == wanted:
        return
    if loaded:
        shown = " ".join(f"{name}={value or '(unset)'}" for name, value in current.items())
        raise KernelMismatch(f"translate.cpu_kernel {kernel}: CTranslate2 is already loaded in this process with "
                             f"other CPU kernels ({shown}) and reads them only once; translate in a new process, or "
                             "keep one translate.cpu_kernel per process")
    overridden = [f"{name}={current[name]}" for name in wanted if current[name] is not None]
    if overridden:
        log.warning("translate.cpu_kernel %s sets the CPU kernels: ignoring %s from the environment", kernel,
                    " ".join(overridden))
    for name, value in wanted.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value


@functools.cache
def _say_no_pin(machine: str) -> None:
    """Once per process: the portable pin does not run on this CPU."""
    log.warning("translate.cpu_kernel portable pins x86-64 AVX2 kernels, which this %s CPU lacks: CTranslate2 uses "
                "its own here, so translations can differ from x86's", machine)


def import_ctranslate2(kernel: str | None) -> ModuleType:
    """``ctranslate2``: the project's one import of it. CTranslate2 loads once per process and reads then what it
    will use, so this does first, in order, where it finds cuBLAS on a GPU (:func:`process_route`) and the CPU kernel
    ``kernel`` (:func:`apply_cpu_kernel`: set before the first import; a different one refused after it), then the
    import. ``kernel`` None for a caller that translates nothing a run keeps (a conversion, a validation
    perplexity): the kernel already loaded, or the environment's, serves."""
    process_route()
    if kernel is not None:
        apply_cpu_kernel(kernel)
    import ctranslate2

    return ctranslate2


def translation_kernel(kernel: str, device: str, backend: str, compute_type: str,
                       cpu: CpuInfo | None = None) -> dict[str, str]:
    """The kernel a translation runs on, as a flat dict of strings: what a run's definition, the translation
    cache's key and the outputs' metadata hold. ``portable`` names the pin, the same on every x86-64 CPU with AVX2;
    ``fastest`` names the vendor's path (vendor, GEMM library, its ISA). On a GPU, or with a backend other than
    CTranslate2, the setting does not apply: the device, backend and compute type. ``compute_type`` as
    CTranslate2 is given it (``auto``: resolved by CTranslate2 from the model's weights)."""
    if device == "cuda" or backend not in ("auto", "ctranslate2"):
        return {"device": device, "backend": backend, "compute_type": compute_type}
    cpu = cpu or cpu_info()
    base = {"setting": kernel, "device": device, "backend": "ctranslate2", "compute_type": compute_type}
    if any(_wanted(kernel, cpu).values()):
        return {**base, "vendor": "any x86-64 with AVX2", "gemm": "oneDNN", "isa": "AVX2", "ct2_isa": "AVX2"}
    intel = cpu.vendor == "GenuineIntel"  # CTranslate2's wheel uses MKL on Intel CPUs only
    ct2_isa = "AVX2" if "avx2" in cpu.flags else "AVX" if "avx" in cpu.flags else "GENERIC"
    return {**base, "vendor": cpu.vendor, "gemm": "MKL" if intel else "oneDNN", "isa": cpu.best_isa(),
            "ct2_isa": ct2_isa}


def run_kernel(config: TranslateConfig) -> dict[str, str]:
    """The kernel a run translates with, as its definition, its outputs' metadata and its summary record it: the
    device as configured (``auto``: the CPU kernel, which applies wherever no GPU is found)."""
    return translation_kernel(config.cpu_kernel, config.device, config.backend, config.compute_type)
