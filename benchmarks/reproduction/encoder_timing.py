"""Encoder speed on one pinned thread, in a fresh process: the timing behind every sentences/s figure of the docs
(``benchmarks.reproduction.frontier`` times; ``benchmarks.reproduction.static_table`` reads the frontier's figures).

:func:`time_encoders` runs ``python -m benchmarks.reproduction.encoder_timing JOB OUT`` in an environment that pins
every pool before it starts (:func:`train_embeddings.evaluation.thread_pools.pinned_environment`: OpenMP, MKL, OpenBLAS
and the tokenizers' Rayon pool of one thread, the tokenizers' batches serial); the child sets torch's inter-op pool to
one thread before any work and times inside :func:`~train_embeddings.evaluation.thread_pools.pinned` (torch intra-op,
the native pools, the tokenizers' batches). The protocol:

* one set of unseen sentences for every encoder and round (rounds differ only by what the machine does), and 64
  more to warm up;
* a *pass*: a fresh copy of the encoder (``copy.deepcopy``: tokeniser and word caches are not copied, so every
  pass is cold), the warm-up sentences, then the set timed in calls of 256 sentences
  (:func:`train_embeddings.evaluation.sts.sentences_per_second`);
* a *round*: passes until at least ``min_seconds`` of CPU time are timed; its figures are the sentences over the
  timed CPU seconds of the process (every thread of it: a pool left unpinned is charged, and time the machine gives
  other jobs is not, which keeps rounds steady on a shared machine) and over the timed wall seconds;
* ``rounds`` rounds, each timing every encoder, in an order rotated by the round.

Beside the figures (:func:`spread` summarises them): the CPU model, the pools as the child saw them, the CPU time that
threads other than the timing one spent while each encoder was timed (``/proc/self/task``: 0 when nothing ran beside
it), and :func:`~train_embeddings.evaluation.thread_pools.tokenizer_threads_started` run with the pools as they were for
the timing.
"""

from __future__ import annotations

import copy
import gc
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.paths import REPO
from train_embeddings.evaluation import sts, thread_pools
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_io import load_model

PROTOCOL = ("torch intra- and inter-op, OpenMP / MKL / OpenBLAS and the tokenizers' Rayon pool sized 1 before the "
            "timing process starts, the tokenizers' batches serial, SentencePiece on torch's one "
            "thread; every pass a fresh (cold) copy of the encoder after {warmup} warm-up sentences, timed on the "
            "same {n:,} unseen STS-B train sentences in calls of 256; a round is passes until ≥ {min_seconds:g} CPU "
            "seconds are timed; {rounds} rounds, the encoder order rotated each round; speed is sentences per CPU "
            "second of the timing process (all its threads), steadier than wall time on a shared machine, which "
            "is kept beside it")


def whitespace_variant(model: EmbeddingModel) -> EmbeddingModel:
    """The same SentencePiece model fed ``str.split()`` tokens instead of Moses tokens (punctuation stays attached:
    a mismatch with training, measured by the quality columns)."""
    spec = copy.copy(model.spec)
    spec.tokenizer = {"kind": "whitespace", "lowercase": bool(model.spec.tokenizer.get("lowercase", True))}
    return EmbeddingModel(spec, model.encoder, model.words, model.trigrams, model.pieces)


def make_encoder(spec: dict[str, Any]) -> Callable[[list[str]], Any]:
    """An encoder from its spec: ``{"kind": "glove"}``, ``{"kind": "sif", "fit": [...], "word_frequencies":
    PATH}``, ``{"kind": "model", "path": DIR}``, ``{"kind": "no-moses", "path": DIR}`` (:func:`whitespace_variant`)
    or ``{"kind": "minilm"}``."""
    kind = spec["kind"]
    if kind == "glove":
        return sts.glove_average_encoder()
    if kind == "sif":
        return sts.sif_encoder(spec["fit"], word_frequencies=spec.get("word_frequencies"))
    if kind == "model":
        return load_model(spec["path"])
    if kind == "no-moses":
        return whitespace_variant(load_model(spec["path"]))
    if kind == "minilm":
        return sts.minilm_encoder()
    raise ValueError(f"unknown encoder kind {kind!r}")


def _thread_cpu_seconds() -> dict[int, float]:
    """CPU seconds (user + system) of every thread of this process, by thread id (Linux; empty elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    out = {}
    task = Path("/proc/self/task")
    for tid in os.listdir(task) if task.is_dir() else ():
        try:
            fields = (task / tid / "stat").read_text().rpartition(")")[2].split()
        except OSError:  # the thread ended meanwhile
            continue
        out[int(tid)] = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15 of stat)
    return out


def _time_round(prototype: Callable[[list[str]], Any], warmup: list[str], sentences: list[str],
                min_seconds: float) -> dict[str, float]:
    """Cold passes (each a fresh copy, warmed up, then timed) until ``min_seconds`` of CPU time are timed."""
    main = threading.get_native_id()
    before = _thread_cpu_seconds()
    timed = wall = cpu = 0.0
    passes = 0
    while passes == 0 or cpu < min_seconds:
        n, pass_wall, pass_cpu = sts.timed_pass(copy.deepcopy(prototype), warmup + sentences, warmup=len(warmup))
        timed, wall, cpu, passes = timed + n, wall + pass_wall, cpu + pass_cpu, passes + 1
    after = _thread_cpu_seconds()
    others = sum(seconds - before.get(tid, 0.0) for tid, seconds in after.items() if tid != main)
    return {"sentences_per_cpu_second": timed / cpu, "wall_sentences_per_second": timed / wall, "passes": passes,
            "cpu_seconds": cpu, "wall_seconds": wall, "other_threads_cpu_seconds": others}


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """The timing itself (the child's work): ``job`` as :func:`time_encoders` writes it."""
    import torch

    torch.set_num_interop_threads(1)  # only possible before any inter-op work: this is a fresh process
    torch.set_num_threads(1)
    at_start = thread_pools.os_threads()
    labels = [spec["label"] for spec in job["encoders"]]
    encoders = {spec["label"]: make_encoder(spec) for spec in job["encoders"]}
    gc.freeze()  # the encoders stay: each pass's collection then walks only what the passes made
    rounds: dict[str, list[dict[str, float]]] = {label: [] for label in labels}
    with thread_pools.pinned(1):
        for r in range(job["rounds"]):
            for label in labels[r % len(labels):] + labels[:r % len(labels)]:
                rounds[label].append(_time_round(encoders[label], job["warmup"], job["sentences"],
                                                 job["min_seconds"]))
                done = rounds[label][-1]
                print(f"  round {r + 1}: {label}: {done['sentences_per_cpu_second']:,.0f} sentences per CPU-second, "
                      f"{done['wall_sentences_per_second']:,.0f}/s wall ({done['passes']} passes)", file=sys.stderr,
                      flush=True)
        pools = thread_pools.pool_report()
        started = thread_pools.tokenizer_threads_started()
    return {"rounds": rounds, "cpu": thread_pools.cpu_model(),
            "pinning": {**pools, "os_threads_at_start": at_start,
                        "tokenizer_threads_started_by_a_batch": started,
                        "other_threads_cpu_seconds_while_timing": max(
                            (r["other_threads_cpu_seconds"] for rs in rounds.values() for r in rs), default=0.0)}}


def time_encoders(encoders: Sequence[dict[str, Any]], sentences: Sequence[str], warmup: Sequence[str], *,
                  rounds: int = 5, min_seconds: float = 2.0) -> dict[str, Any]:
    """Time ``encoders`` (specs for :func:`make_encoder`, each with a ``label``) in a fresh pinned process:
    ``{"rounds": {label: [{"sentences_per_cpu_second", "wall_sentences_per_second", ...}, ...]}, "cpu": ...,
    "pinning": {...}, "protocol": ...}``."""
    job = {"encoders": list(encoders), "sentences": list(sentences), "warmup": list(warmup), "rounds": rounds,
           "min_seconds": min_seconds}
    env = {**os.environ, **thread_pools.pinned_environment(1),
           "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    with tempfile.TemporaryDirectory() as tmp:
        job_file, out_file = Path(tmp) / "job.json", Path(tmp) / "out.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "benchmarks.reproduction.encoder_timing", str(job_file), str(out_file)],
                       cwd=REPO, env=env, check=True)
        result = json.loads(out_file.read_text(encoding="utf-8"))
    result["wall_seconds"] = round(time.perf_counter() - started, 1)
    result["protocol"] = PROTOCOL.format(warmup=len(warmup), n=len(sentences), min_seconds=min_seconds,
                                         rounds=rounds)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    job_file, out_file = (argv if argv is not None else sys.argv[1:])
    result = run_job(json.loads(Path(job_file).read_text(encoding="utf-8")))
    Path(out_file).write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
