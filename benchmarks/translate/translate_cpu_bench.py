"""Back-translation on CPU workers: today's code path beside the new one, interleaved, on the real model.

Parts (``--parts``, default all):

* ``profile``: one chunk at beam 12 through the Translator's steps, timed one by one, for today's path and the
  new one: the text chain (Moses + BPE in, un-BPE + Moses detokenisation out), CTranslate2, the batches' fill
  (real / padded source tokens), the cores kept busy (process CPU seconds / wall seconds) and the multiply-adds
  CTranslate2 performed (counted from the architecture, the source lengths and the output lengths) per second,
  beside the machine's GEMM peak measured in the same run (``gemm``).
* ``gemm``: the machine's matrix-multiply peak, float32 (torch.mm, MKL) and int8 (fbgemm's dynamically
  quantised linear: u8 x s8 -> s32 with the activations quantised on the fly, the kind of kernel CTranslate2's
  int8 runs through oneDNN; torch's ``_int_mm`` has no fast CPU kernel, 0.2 GMAC/s here), on 1 and all threads,
  at a large square shape and at the model's own decoder shapes.
* ``speed``: the cases below translate the same sentences as one chunk, A B C A B C ... (``--repeats`` rounds),
  each in its own process-wide translator loaded once; min and median sentences/s and the median of the
  per-round ratios to ``today`` (pairing cancels slow drifts of a shared machine). ``today`` is the code path
  before this change: ``inter_threads=1, intra_threads=<threads>``, 4,096-token buckets (``--today-batch-tokens``)
  decoded one after another, synchronously; ``percore`` changes the thread split only (one batch per core,
  ``inter_threads=<threads>, intra_threads=1``, buckets submitted asynchronously, longest first); ``new`` is the
  default now: percore's split with the CPU's default bucket (512 tokens); ``fairseq`` is the PyTorch backend at
  the same threads and the default bucket; ``--extra KIND@TOKENS`` adds a path at another bucket. The outputs of
  every round are compared byte for byte with the first round's (repeatability).
* ``identity``: percore vs today (the thread split alone), new vs today at new's bucket (the same), and new vs
  today (plus the bucket's batch-composition jitter), on ``--identity-sentences`` sentences as one chunk, int8 and
  float32: hypotheses that differ and the largest score difference.

Sentences: a seeded random sample of the Czech side of every file of ``../shared/data/bitext`` (captions,
Tatoeba, news). The machine's load average is printed at the start and the end. ``--json`` keeps everything.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.doc_sections import table
from benchmarks.paths import SHARED, shown
from benchmarks.result import argument_parser, write_result
from benchmarks.timing import Times, interleaved, median_ratio
from configs.schema import TranslateConfig
from translate.batching import token_buckets
from translate.card import ModelDir
from translate.ct2_backend import available_cores
from translate.loading import load_translator
from translate.translator import Translation, Translator

DEFAULT_BITEXT = SHARED / "data" / "bitext"
DEFAULT_MODEL = SHARED / "models" / "small-cs-en"
PARTS = ("gemm", "profile", "speed", "identity", "vmap")


def sample_bitext(bitext: Path, n: int, seed: int = 0) -> list[str]:
    """``n`` Czech sentences drawn (seeded) from every ``*.cs`` file of ``bitext``, non-empty, de-duplicated."""
    pool: list[str] = []
    for path in sorted(bitext.glob("*.cs")):
        pool += [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    pool = sorted(set(pool))
    if n > len(pool):
        raise SystemExit(f"error: {bitext} has only {len(pool)} distinct Czech sentences; ask for fewer")
    return random.Random(seed).sample(pool, n)


class _Synchronous:
    """Today's code path: the backend without ``submit``, so the Translator decodes buckets one by one."""

    def __init__(self, backend: Any):
        self._backend = backend
        self.name, self.device = backend.name, backend.device
        self.compute_type = backend.compute_type

    def decode(self, batch: list[list[str]]) -> Any:
        return self._backend.decode(batch)

    def recover(self) -> None:
        self._backend.recover()


def build(kind: str, model: Path, compute_type: str, threads: int, beam: int, batch_tokens: int | None,
          vmap: Path | None = None) -> Translator:
    """``today`` / ``percore`` / ``new`` (CTranslate2, ``new`` optionally with a vocabulary map) or ``fairseq``, as
    the pipeline would load them; ``batch_tokens`` None is the configuration's default (the CPU bucket)."""
    common = dict(model=model, device="cpu", beam_size=beam, max_batch_tokens=batch_tokens, threads=threads)
    if kind == "fairseq":
        return load_translator(TranslateConfig(backend="fairseq", compute_type="float32", **common))
    if kind == "today":
        config = TranslateConfig(backend="ctranslate2", compute_type=compute_type, inter_threads=1,
                                 intra_threads=threads, **common)
        translator = load_translator(config)
        translator.backend = _Synchronous(translator.backend)
        return translator
    if kind == "new":
        return load_translator(TranslateConfig(backend="ctranslate2", compute_type=compute_type, vmap=vmap,
                                               **common))
    if kind == "percore":
        return load_translator(TranslateConfig(backend="ctranslate2", compute_type=compute_type, inter_threads=threads,
                                               intra_threads=1, **common))
    raise ValueError(kind)


def fingerprint(translations: list[Translation]) -> list[tuple[tuple[str, ...], float]]:
    return [(t.tokens, t.score) for t in translations]


def gemm_peak(threads_list: list[int], seconds: float = 0.6) -> list[dict[str, Any]]:
    """Multiply-adds per second of float32 and int8 matrix products (best of a few timed loops each)."""
    import torch

    shapes = {"square 1024": (1024, 1024, 1024), "decoder FFN (M=2400)": (2400, 256, 1024),
              "decoder output layer (M=2400)": (2400, 256, 5256)}
    rows = []
    for threads in threads_list:
        torch.set_num_threads(threads)
        for shape_name, (m, k, n) in shapes.items():
            a32, b32 = torch.randn(m, k), torch.randn(k, n)
            qlinear = torch.ao.nn.quantized.dynamic.Linear(k, n, dtype=torch.qint8)
            kernels: dict[str, Callable[[], Any]] = {
                "float32 torch.mm (MKL)": lambda a=a32, b=b32: torch.mm(a, b),
                "int8 fbgemm dynamic linear": lambda a=a32, q=qlinear: q(a),
            }
            for name, fn in kernels.items():
                with torch.inference_mode():
                    fn()
                    times, started = Times(), time.perf_counter()
                    while time.perf_counter() - started < seconds:
                        times.run(fn)
                # per CPU second: what one core does while it runs, whatever share of it a loaded machine gives
                macs = m * k * n
                rows.append({"threads": threads, "shape": shape_name, "kernel": name, "calls": len(times.wall),
                             "gmacs": macs / times.best / 1e9, "gmacs_per_cpu_s": macs / min(times.cpu) / 1e9})
    return rows


def peak_per_core(rows: list[dict[str, Any]], dtype: str) -> float:
    """One core's peak: the best multiply-adds per second of any one-thread kernel and shape for ``dtype`` (a
    multi-thread call's per-CPU-second figure is not used: a short call's CPU time can miss a thread's share)."""
    return max(r["gmacs_per_cpu_s"] for r in rows if r["kernel"].startswith(dtype) and r["threads"] == 1)


@dataclass(frozen=True)
class Architecture:
    layers_enc: int
    layers_dec: int
    dim: int
    ffn: int
    target_vocab: int

    @classmethod
    def of(cls, model: Path) -> Architecture:
        card = ModelDir(model).card
        # the JSON object, and any prose after it (the package's own card describes the preset there)
        recipe, _ = json.JSONDecoder().raw_decode(str(card.provenance.get("recipe", "{}")))
        vocab = json.loads((model / "ct2" / "target_vocabulary.json").read_text(encoding="utf-8"))
        layers = int(recipe["layers"])
        return cls(layers, layers, int(recipe["embed_dim"]), int(recipe["ffn_dim"]), len(vocab))

    def macs(self, source_len: int, output_len: int, beam: int) -> float:
        """Multiply-adds of one sentence's beam search as CTranslate2 runs it (source and output with EOS).

        Encoder: per token and layer Q, K, V, output (4 d^2) and the FFN (2 d f), plus attention (2 S d per
        token). Decoder, per hypothesis and step: self-attention Q, K, V, output (4 d^2), cross-attention Q and
        output (2 d^2), FFN (2 d f), attention over the t previous and S source positions (2 (t + S) d), and the
        output layer (d V). The cross-attention keys and values of the source (2 d^2 per source token and
        layer) are computed once per hypothesis (CTranslate2 tiles the encoder output over the beam).
        """
        d, f, s, t = self.dim, self.ffn, source_len, output_len
        encoder = self.layers_enc * (s * (4 * d * d + 2 * d * f) + 2 * s * s * d)
        per_step = self.layers_dec * (6 * d * d + 2 * d * f) + d * self.target_vocab
        attention = self.layers_dec * 2 * d * (t * (t + 1) / 2 + s * t)
        memory = self.layers_dec * 2 * d * d * s
        return encoder + beam * (t * per_step + attention + memory)


@dataclass
class Profile:
    path: str
    compute_type: str
    sentences: int
    batches: int = 0
    encode_s: float = 0.0
    decode_text_s: float = 0.0
    ct2_s: float = 0.0
    ct2_cpu_s: float = 0.0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    fill: float = 0.0  # real source tokens / padded source tokens
    gmacs: float = 0.0  # multiply-adds performed, in 1e9
    notes: list[str] = field(default_factory=list)


def profile_chunk(translator: Translator, sentences: list[str], arch: Architecture, beam: int, path: str,
                  compute_type: str) -> Profile:
    """The Translator's steps on one chunk, timed one by one (same calls as ``Translator.translate``)."""
    prof = Profile(path, compute_type, len(sentences))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    t0 = time.perf_counter()
    pieces = translator.encoder.encode_batch(sentences)
    prof.encode_s = time.perf_counter() - t0
    lengths = np.array([len(p) for p in pieces])
    buckets = token_buckets(lengths, translator.batch_tokens, translator.batch_sentences)
    prof.batches = len(buckets)
    prof.fill = float(lengths.sum() / sum(len(b) * lengths[b].max() for b in buckets))
    backend = translator.backend
    t0, c0 = time.perf_counter(), time.process_time()
    outputs: dict[int, list[Any]] = {}
    submit = getattr(backend, "submit", None)
    if submit is None:
        for k, b in enumerate(buckets):
            outputs[k] = backend.decode([pieces[i] for i in b])
    else:
        order = sorted(range(len(buckets)), key=lambda k: -len(buckets[k]) * int(lengths[buckets[k]].max()))
        pending = {k: submit([pieces[i] for i in buckets[k]]) for k in order}
        outputs = {k: pending[k].result() for k in order}
    prof.ct2_s = time.perf_counter() - t0
    prof.ct2_cpu_s = time.process_time() - c0
    t0 = time.perf_counter()
    out_len = np.zeros(len(sentences), dtype=np.int64)
    for k, b in enumerate(buckets):
        for i, nbest in zip(b, outputs[k], strict=True):
            translator.decoder.decode(nbest[0].tokens)
            out_len[i] = len(nbest[0].tokens)
    prof.decode_text_s = time.perf_counter() - t0
    prof.wall_s = time.perf_counter() - wall0
    prof.cpu_s = time.process_time() - cpu0
    prof.gmacs = sum(arch.macs(int(s) + 1, int(t) + 1, beam) for s, t in zip(lengths, out_len, strict=True)) / 1e9
    return prof


@dataclass
class SpeedCase:
    name: str
    kind: str
    compute_type: str
    batch_tokens: int | None = None  # None: the kind's own (today, percore: --today-batch-tokens; new: default)
    chunks: int = 1  # chunks translated at once by as many threads
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    busiest_thread_seconds: list[float] = field(default_factory=list)
    runqueue_wait_seconds: list[float] = field(default_factory=list)
    repeatable: bool = True
    sentences: int = 0

    def rates(self) -> list[float]:
        return [self.sentences / s for s in self.seconds]


def thread_schedstat() -> dict[str, tuple[float, float]]:
    """Per thread of this process: (seconds on a CPU, seconds runnable but waiting for one), from the kernel's
    schedstat (Linux; empty elsewhere)."""
    out = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return out
    for task in tasks:
        try:
            on_cpu, waiting, _ = Path(f"/proc/self/task/{task}/schedstat").read_text().split()
        except (OSError, ValueError):
            continue
        out[task] = (int(on_cpu) / 1e9, int(waiting) / 1e9)
    return out


def busiest_thread(before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]]
                   ) -> tuple[float, float]:
    """(on-CPU seconds of the thread that ran longest, total runqueue-wait seconds of all threads) between two
    :func:`thread_schedstat` readings. With every thread on its own idle core the wall time is at least the first
    (exactly it when the threads never wait for each other, as independent batches do not)."""
    deltas = [(on - before.get(t, (0.0, 0.0))[0], wait - before.get(t, (0.0, 0.0))[1])
              for t, (on, wait) in after.items()]
    return max((d[0] for d in deltas), default=0.0), sum(d[1] for d in deltas)


def translate_chunks(translator: Translator, sentences: list[str], chunks: int) -> list[Translation]:
    """``sentences`` cut into ``chunks`` equal chunks, each translated by its own thread at the same time (as
    Beam's worker threads share one translator), results in input order."""
    if chunks == 1:
        return translator.translate(sentences)
    size = -(-len(sentences) // chunks)
    parts = [sentences[i : i + size] for i in range(0, len(sentences), size)]
    with ThreadPoolExecutor(len(parts)) as pool:
        return [t for out in pool.map(translator.translate, parts) for t in out]


def run_speed(cases: list[SpeedCase], translators: dict[str, Translator], sentences: list[str],
              repeats: int) -> None:
    first: dict[str, list[tuple[tuple[str, ...], float]]] = {}
    for case in cases:
        translators[case.name].translate(sentences[:24])  # warm-up
        case.sentences = len(sentences)
    for round_ in range(repeats):
        for case in cases:
            sched0, cpu0, t0 = thread_schedstat(), time.process_time(), time.perf_counter()
            out = translate_chunks(translators[case.name], sentences, case.chunks)
            case.seconds.append(time.perf_counter() - t0)
            case.cpu_seconds.append(time.process_time() - cpu0)
            busiest, waited = busiest_thread(sched0, thread_schedstat())
            case.busiest_thread_seconds.append(busiest)
            case.runqueue_wait_seconds.append(waited)
            fp = fingerprint(out)
            if case.name not in first:
                first[case.name] = fp
            elif fp != first[case.name]:
                case.repeatable = False
            print(f"  round {round_ + 1}/{repeats} {case.name:16s} {len(sentences) / case.seconds[-1]:7.1f} sent/s",
                  flush=True)


def compare(a: list[tuple[tuple[str, ...], float]], b: list[tuple[tuple[str, ...], float]]) -> dict[str, Any]:
    differ = sum(x[0] != y[0] for x, y in zip(a, b, strict=True))
    same = [abs(x[1] - y[1]) for x, y in zip(a, b, strict=True) if x[0] == y[0]]
    return {"sentences": len(a), "hypotheses_differ": differ, "max_score_diff_same_hypothesis": max(same),
            "max_score_diff": max(abs(x[1] - y[1]) for x, y in zip(a, b, strict=True)),
            "identical_bytes": a == b}


def vmap_part(args: argparse.Namespace, threads: int, full: Translator) -> list[dict[str, Any]]:
    """Full vocabulary vs the vmap on the first ``--vmap-sentences`` of Multi30k val and newstest2015 (int8, the
    new path): BLEU, chrF, top-1 agreement, and the speed of the two, alternating, two rounds (min time)."""
    import sacrebleu

    shortlist = build("new", args.model, "int8", threads, args.beam, None, args.vmap)
    rows, cells = [], []
    for name in ("multi30k-val", "newstest2015"):
        src = (args.bitext / f"{name}.cs").read_text(encoding="utf-8").splitlines()[: args.vmap_sentences]
        ref = (args.bitext / f"{name}.en").read_text(encoding="utf-8").splitlines()[: args.vmap_sentences]
        outputs: dict[str, list[str]] = {}
        timing = interleaved({label: lambda label=label, tr=tr, src=src, out=outputs: out.__setitem__(
            label, [t.hypothesis for t in tr.translate(src)]) for label, tr in (("full", full), ("vmap", shortlist))},
            rounds=2)
        agree = sum(a == b for a, b in zip(outputs["full"], outputs["vmap"], strict=True)) / len(src)
        for label in ("full", "vmap"):
            bleu = sacrebleu.metrics.BLEU().corpus_score(outputs[label], [ref]).score
            chrf = sacrebleu.metrics.CHRF().corpus_score(outputs[label], [ref]).score
            wall, cpu = timing[label].best, min(timing[label].cpu)
            speedup = timing["full"].best / wall
            row = {"test_set": name, "vocabulary": label, "sentences": len(src), "bleu": bleu, "chrf": chrf,
                   "top1_equal_full": agree if label == "vmap" else 1.0, "sent_per_s": len(src) / wall,
                   "sent_per_cpu_s": len(src) / cpu, "speedup_wall": speedup,
                   "speedup_cpu": min(timing["full"].cpu) / cpu}
            rows.append(row)
            cells.append([name, label, f"{bleu:.1f}", f"{chrf:.1f}", f"{row['top1_equal_full']:.1%}",
                          f"{row['sent_per_s']:.1f}", f"{row['sent_per_cpu_s']:.1f}",
                          f"{speedup:.2f}x wall, {row['speedup_cpu']:.2f}x CPU"])
    print(f"\nVocabulary map {args.vmap} (int8, new path, first {args.vmap_sentences} sentences of each set):",
          *table(["test set", "vocabulary", "BLEU", "chrF", "top-1 equal to full", "sent/s (best of 2)",
                  "CPU sent/s", "speed-up"], "llr", cells), sep="\n", flush=True)
    return rows


def build_parser() -> argparse.ArgumentParser:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--bitext", type=Path, default=DEFAULT_BITEXT)
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--sentences", type=int, default=400, help="the chunk timed by profile and speed")
    parser.add_argument("--identity-sentences", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=0, help="0: every core this process may use")
    parser.add_argument("--beam", type=int, default=12)
    parser.add_argument("--today-batch-tokens", type=int, default=4096,
                        help="the bucket of today's path and of percore (the default before this change)")
    parser.add_argument("--extra", nargs="*", default=[], metavar="KIND@TOKENS",
                        help="also time these paths at these buckets, e.g. today@512 new@1024 fairseq@4096")
    parser.add_argument("--chunks", type=int, nargs="+", default=[1],
                        help="also time K chunks translated at once by K threads sharing the translator")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds of the speed cases")
    parser.add_argument("--no-fairseq", action="store_true", help="leave fairseq out of the speed cases")
    parser.add_argument("--compute-types", nargs="+", default=["int8", "float32"])
    parser.add_argument("--vmap", type=Path, help="a vocabulary map: adds a 'new int8 +vmap' speed case and the "
                        "vmap part (BLEU/chrF and agreement with the full vocabulary)")
    parser.add_argument("--vmap-sentences", type=int, default=500, help="first N of each vmap test set")
    return parser


@dataclass
class Translators:
    """One translator per (path, compute type, bucket), built on first use and shared by every part."""

    model: Path
    threads: int
    beam: int
    today_batch_tokens: int  # the bucket of today's path and of percore when none is given
    made: dict[tuple[str, str, int | None], Translator] = field(default_factory=dict)

    def get(self, kind: str, compute_type: str, batch_tokens: int | None = None) -> Translator:
        if batch_tokens is None and kind in ("today", "percore"):
            batch_tokens = self.today_batch_tokens
        key = (kind, compute_type, batch_tokens)
        if key not in self.made:
            self.made[key] = build(kind, self.model, compute_type, self.threads, self.beam, batch_tokens)
        return self.made[key]


def gemm_part(threads: int) -> list[dict[str, Any]]:
    """The machine's GEMM peak on 1 and ``threads`` threads, printed as a table."""
    gemm = gemm_peak(sorted({1, threads}))
    print("\nGEMM peak (best call; GMAC per CPU second = per busy core):",
          *table(["threads", "shape", "kernel", "GMAC/s wall", "GMAC per CPU s"], "rllr",
                 [[r["threads"], r["shape"], r["kernel"], f"{r['gmacs']:.1f}", f"{r['gmacs_per_cpu_s']:.1f}"]
                  for r in gemm]), sep="\n")
    return gemm


def profile_part(args: argparse.Namespace, translators: Translators, gemm: list[dict[str, Any]]) -> list[Profile]:
    """One chunk through today's and the new path's steps, per compute type, beside the GEMM peak."""
    arch = Architecture.of(args.model)
    chunk = sample_bitext(args.bitext, args.sentences, seed=1)
    profiles = []
    for compute_type in args.compute_types:
        for kind in ("today", "new"):
            tr = translators.get(kind, compute_type)
            tr.translate(chunk[:24])
            profiles.append(profile_chunk(tr, chunk, arch, args.beam, kind, compute_type))
    print(f"\nProfile of one {args.sentences}-sentence chunk (beam {args.beam}); shares of wall time; cores "
          "busy = CPU s / wall s; GMAC per CPU s = counted multiply-adds / CPU seconds of CTranslate2, beside "
          "the best GEMM's per CPU second (one busy core's peak):")
    cells = []
    for p in profiles:
        dtype = "int8" if p.compute_type.startswith("int8") else "float32"
        per_cpu = p.gmacs / p.ct2_cpu_s
        cells.append([p.path, p.compute_type, f"{p.wall_s:.1f}", f"{p.encode_s / p.wall_s:.1%}",
                      f"{p.ct2_s / p.wall_s:.1%}", f"{p.decode_text_s / p.wall_s:.1%}", p.batches, f"{p.fill:.1%}",
                      f"{p.cpu_s / p.wall_s:.2f}", f"{p.gmacs / p.ct2_s:.1f}", f"{per_cpu:.1f}",
                      f"{per_cpu / peak_per_core(gemm, dtype):.1%}"])
    print(*table(["path", "compute", "wall s", "Moses+BPE", "CTranslate2", "detok", "batches", "fill", "cores busy",
                  "GMAC/s wall", "GMAC per CPU s", "% of one core's GEMM peak"], "llr", cells), sep="\n")
    return profiles


def extra_cases(extras: list[str], compute_types: list[str]) -> list[SpeedCase]:
    """The ``--extra KIND@TOKENS`` cases; a malformed one is a :class:`ValueError` naming it."""
    cases = []
    for extra in extras:
        kind, _, tokens = extra.partition("@")
        if kind not in ("today", "percore", "new", "fairseq") or not tokens.isdigit():
            raise ValueError(f"--extra {extra}: expected KIND@TOKENS with KIND today, percore, new or fairseq")
        for ct in (["float32"] if kind == "fairseq" else compute_types):
            cases.append(SpeedCase(f"{kind} {ct} @{tokens}", kind, ct, batch_tokens=int(tokens)))
    return cases


def speed_cases(args: argparse.Namespace) -> list[SpeedCase]:
    """Every path at every compute type (K chunks at the first only), the extras, the vmap and fairseq."""
    cases = [SpeedCase(f"{kind} {ct}" + (f" x{k} chunks" if k > 1 else ""), kind, ct, chunks=k)
             for k in args.chunks for ct in (args.compute_types if k == 1 else args.compute_types[:1])
             for kind in ("today", "new", "percore")]
    cases += extra_cases(args.extra, args.compute_types)
    if args.vmap is not None:
        cases.append(SpeedCase(f"new {args.compute_types[0]} +vmap", "new", args.compute_types[0]))
    if not args.no_fairseq:
        cases.append(SpeedCase("fairseq float32", "fairseq", "float32"))
    return cases


def _paired(case: SpeedCase, base: SpeedCase | None, attr: str) -> float | None:
    """The median over rounds of ``base``'s time / ``case``'s: the speed-up, round by round."""
    if base is None:
        return None
    return median_ratio(getattr(base, attr), getattr(case, attr))


def speed_rows(cases: list[SpeedCase]) -> list[dict[str, Any]]:
    """Each case's median rates and its speed-ups over today's path (same compute type and chunks) and fairseq,
    printed as a table."""
    ref = {(c.compute_type, c.chunks): c for c in cases if c.kind == "today" and c.batch_tokens is None}
    fair = next((c for c in cases if c.kind == "fairseq" and c.batch_tokens is None), None)
    print("\nwall: sentences/s as timed; CPU: sentences per CPU second of the process (all threads); busiest "
          "thread: sentences per on-CPU second of the thread that ran longest (the rate with each thread on its "
          "own idle core: exact for independent batches, an upper bound for today's threads, which also wait "
          "for each other); ratios are medians of the per-round ratios.")

    def fmt(x: float | None) -> str:
        return "" if x is None else f"{x:.2f}x"

    rows, cells = [], []
    metrics = ("seconds", "cpu_seconds", "busiest_thread_seconds")
    for c in cases:
        base = ref.get((c.compute_type, c.chunks)) if c.kind != "fairseq" else None
        vs_today = [_paired(c, base, m) for m in metrics]
        vs_fair = [_paired(c, fair, m) if fair is not None and c.chunks == 1 else None for m in metrics]
        rates = {m: statistics.median(c.sentences / x for x in getattr(c, m)) for m in metrics}
        rows.append({**asdict(c), "median_rates": rates, "vs_today": dict(zip(metrics, vs_today, strict=True)),
                     "vs_fairseq": dict(zip(metrics, vs_fair, strict=True))})
        cells.append([c.name, f"{min(c.rates()):.1f} / {rates['seconds']:.1f}",
                      f"{statistics.median(c.runqueue_wait_seconds):.0f}", f"{rates['cpu_seconds']:.1f}",
                      f"{rates['busiest_thread_seconds']:.1f}", *map(fmt, vs_today), *map(fmt, vs_fair),
                      "yes" if c.repeatable else "NO"])
    print(*table(["case", "wall sent/s min / median", "runqueue wait s", "CPU sent/s", "busiest-thread sent/s",
                  "vs today: wall", "CPU", "busiest thread", "vs fairseq: wall", "CPU", "busiest thread",
                  "repeatable"], "l" + "r" * 10 + "l", cells), sep="\n")
    return rows


def speed_part(args: argparse.Namespace, translators: Translators) -> list[dict[str, Any]]:
    """The speed cases side by side, interleaved over ``--repeats`` rounds of the same chunk."""
    chunk = sample_bitext(args.bitext, args.sentences, seed=2)
    cases = speed_cases(args)
    by_name = {c.name: (build("new", args.model, c.compute_type, translators.threads, args.beam, None, args.vmap)
                        if c.name.endswith("+vmap") else translators.get(c.kind, c.compute_type, c.batch_tokens))
               for c in cases}
    print(f"\nSide by side: {len(cases)} cases x {args.repeats} interleaved rounds of the same "
          f"{args.sentences} sentences (one chunk, or K chunks at once)", flush=True)
    run_speed(cases, by_name, chunk, args.repeats)
    return speed_rows(cases)


def identity_part(args: argparse.Namespace, translators: Translators, new_tokens: int) -> dict[str, Any]:
    """Whether the paths translate one chunk to the same hypotheses and scores, per compute type."""
    chunk = sample_bitext(args.bitext, args.identity_sentences, seed=3)
    identity = {}
    # percore vs today, and new vs today at new's bucket: the thread split and asynchronous batches alone;
    # new vs today: plus the bucket's batch-composition jitter.
    pairs = {"percore vs today": (("percore", None), ("today", None)),
             f"new vs today @{new_tokens}": (("new", None), ("today", new_tokens)),
             "new vs today": (("new", None), ("today", None))}
    print(f"\nIdentity, one {len(chunk)}-sentence chunk:")
    for compute_type in args.compute_types:
        done: dict[tuple[str, int | None], list[tuple[tuple[str, ...], float]]] = {}
        for label, sides in pairs.items():
            for side in sides:
                if side not in done:
                    done[side] = fingerprint(translators.get(side[0], compute_type, side[1]).translate(chunk))
            result = compare(done[sides[0]], done[sides[1]])
            identity[f"{compute_type}: {label}"] = result
            print(f"  {compute_type}, {label}: {result['hypotheses_differ']} of {result['sentences']} "
                  f"hypotheses differ, max score difference {result['max_score_diff']:.3g}, byte-identical: "
                  f"{result['identical_bytes']}")
    return identity


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if not args.model.exists() or not args.bitext.exists():
        parser.error(f"{args.model} or {args.bitext} is absent: pass --model and --bitext")
    try:
        extra_cases(args.extra, args.compute_types)
    except ValueError as error:
        parser.error(str(error))
    threads = args.threads or available_cores()
    report: dict[str, Any] = {"model": shown(args.model), "threads": threads, "beam": args.beam,
                              "load_start": os.getloadavg()}
    new_tokens = TranslateConfig().batch_tokens("cpu")
    print(f"model {args.model}, beam {args.beam}, {threads} threads; buckets: today and percore "
          f"{args.today_batch_tokens} tokens, new {new_tokens} (the CPU default); "
          f"load average at start {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores", flush=True)
    translators = Translators(args.model, threads, args.beam, args.today_batch_tokens)
    if "gemm" in args.parts or "profile" in args.parts:
        report["gemm"] = gemm_part(threads)
    if "profile" in args.parts:
        report["profile"] = [asdict(p) for p in profile_part(args, translators, report["gemm"])]
    if "speed" in args.parts:
        report["speed"] = speed_part(args, translators)
    if "identity" in args.parts:
        report["identity"] = identity_part(args, translators, new_tokens)
    if "vmap" in args.parts and args.vmap is not None:
        report["vmap"] = vmap_part(args, threads, translators.get("new", "int8"))
    report["load_end"] = os.getloadavg()
    print(f"\nload average at end {os.getloadavg()[0]:.2f} (1 min)")
    write_result(args.json, report, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
