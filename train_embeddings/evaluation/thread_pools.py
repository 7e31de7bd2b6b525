"""What "N threads" means in a speed figure: every thread pool an encoder here can run on, pinned together.

The pools: torch's intra-op pool (OpenMP) and inter-op pool; the native BLAS / OpenMP pools of NumPy and SciPy
(OpenBLAS, MKL, libgomp: threadpoolctl sees and sizes them all); the Hugging Face tokenizers' Rayon pool, which a
batch call uses unless ``TOKENIZERS_PARALLELISM`` is false (read at every call); SentencePiece's batch pool (sized
by torch's setting: :class:`train_embeddings.vocab.SentencePieceVocab`).

* :func:`pinned` pins what a running process can change (torch intra-op, the native pools, the tokenizers'
  parallel batches) until the block ends; :func:`pinned_environment` is the environment that also fixes what only a
  fresh process can (the size of Rayon's and OpenMP's pools when they start; torch's inter-op pool is set by the
  process itself before any work: ``benchmarks.reproduction.encoder_timing``).
* :func:`pool_report` says what the pools are now, :func:`tokenizer_threads_started` whether the tokenizers' pool
  is pinned (threads a large batch starts), :func:`cpu_model` which CPU ran: every speed figure carries them.
"""

from __future__ import annotations

import contextlib
import os
import platform
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_info, threadpool_limits

__all__ = ["cpu_model", "os_threads", "pinned", "pinned_environment", "pool_report", "tokenizer_threads_started"]

# Read once, when the pool of that library starts (a fresh process): OpenMP (torch, libgomp), MKL, OpenBLAS, Rayon.
_POOL_SIZES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "RAYON_NUM_THREADS")
_TOKENIZERS = "TOKENIZERS_PARALLELISM"


def pinned_environment(threads: int = 1) -> dict[str, str]:
    """Environment variables that start a process with every native pool of ``threads`` threads (and, for one
    thread, the tokenizers' batches serial)."""
    env = dict.fromkeys(_POOL_SIZES, str(threads))
    if threads == 1:
        env[_TOKENIZERS] = "false"
    return env


@contextlib.contextmanager
def pinned(threads: int = 1) -> Iterator[None]:
    """Torch's intra-op threads, every native BLAS / OpenMP pool and (for one thread) the tokenizers' batches
    limited to ``threads`` inside the block; everything restored after."""
    import torch  # deferred: importing train_embeddings.evaluation.sts (which times encoders) stays torch-free

    before_torch, before_env = torch.get_num_threads(), os.environ.get(_TOKENIZERS)
    torch.set_num_threads(threads)
    if threads == 1:
        os.environ[_TOKENIZERS] = "false"
    try:
        with threadpool_limits(limits=threads):
            yield
    finally:
        torch.set_num_threads(before_torch)
        if threads == 1:
            if before_env is None:
                os.environ.pop(_TOKENIZERS, None)
            else:
                os.environ[_TOKENIZERS] = before_env


def os_threads() -> int:
    """Threads of this process as the kernel sees them (Linux ``/proc/self/task``; 0 where there is none)."""
    task = Path("/proc/self/task")
    return len(os.listdir(task)) if task.is_dir() else 0


def tokenizer_threads_started(n: int = 20_000) -> int:
    """Threads a large Hugging Face tokenizers batch starts in this process: 0 while its Rayon pool is pinned (the
    batch runs serially), the pool's size the first time a batch runs in parallel."""
    from tokenizers import Tokenizer  # with the st and static extras, like every tokenizer here
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import WhitespaceSplit

    tokenizer = Tokenizer(WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = WhitespaceSplit()
    before = os_threads()
    tokenizer.encode_batch(["a a a b"] * n)
    return os_threads() - before


def pool_report() -> dict[str, Any]:
    """Every pool's size now: torch intra- and inter-op, each native library threadpoolctl finds, the tokenizers'
    and the pool-size environment variables, and the process's OS threads."""
    import torch

    return {"torch_intra_op": torch.get_num_threads(), "torch_inter_op": torch.get_num_interop_threads(),
            "native": sorted({f"{pool['internal_api']} ({pool['prefix']}): {pool['num_threads']}"
                              for pool in threadpool_info()}),
            "environment": {name: os.environ.get(name) for name in (*_POOL_SIZES, _TOKENIZERS)},
            "os_threads": os_threads()}


def cpu_model() -> str:
    """The CPU's model name and the logical CPUs this process may use, e.g. ``"AMD EPYC (2 logical CPUs)"``."""
    name = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                name = line.partition(":")[2].strip()
                break
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{name or platform.processor() or platform.machine()} ({usable} logical CPUs)"
