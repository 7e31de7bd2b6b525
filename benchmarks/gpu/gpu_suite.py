"""The GPU worker, measured in one run of at most a few minutes: back-translation at beam 12 in steady state, the
pipeline with ``--device cuda``, broken backends, and training the back-translation model.

The parts (``--parts``, run in the order given; the backend check always first; the cases, the budget and the
translation part are ``gpu_cases.py``, the pipeline and fail fast ``gpu_pipeline.py``, its JSON ``gpu_report.py``):

* **backend check**: every (backend, compute type, device) any planned case uses, and the CPU reference, translates
  the first 64 sentences, all at once, each in its own process stopped after ``--check-seconds``. The cases of a
  backend that failed its check are recorded as skipped with its error.
* **translate** / **sweep** / **base**: the cases of :data:`CASES` (one table: a name, ``translate.*`` overrides of
  the case's config, its model and what it measures), each in a process of its own (``gpu_case.py``). The
  sentences are the Czech side of the bitext and the LibreOffice corpus (distinct, non-empty, one seeded order).
  A ``steady`` case translates at least ``--sentences`` (40,000) of them, and at least :data:`STEADY_BATCHES`
  batches at its bucket; its rate is taken from its own per-batch progress timestamps, from the end of its first
  :data:`STEADY_SKIP` batches to its last (the warm-up left out), with the GPU's busy share (``nvidia-smi``, every
  100 ms) over that span. A ``latency`` case is the old 4,000-sentence case: its rate is the whole call's, a
  figure of a few batches, not of a steady state. The ``reference`` case is CTranslate2 int8 on every CPU core
  with the CPU defaults, on the first :data:`REFERENCE_SENTENCES`: every small-cs-en case reports the share of
  those sentences it translates identically (the bar: 0.85). ``base`` cases use a transformer-base-sized model
  (random weights, each sentence's length capped at the reference's mean output length).
* **failfast**: broken backends through ``python -m pipeline.run`` (:func:`fail_fast_part`): one line, exit 2,
  at most 10 s, nothing final written; recorded per scenario.
* **pipeline**: ``pipeline.job.run_job`` with ``--device cuda`` over the bitext and the LibreOffice corpus at two sizes
  (27,000 and all 108,635 pairs), in-process and with a worker process per core: the marginal rate between the
  sizes over the standalone rates of the same call, wall time over the translation span, the GPU's busy share over
  the translation span, whether every mode wrote the same ``train/``, and beside each what the CPU stand-in
  (``benchmarks/results/gpu_standin.json``) predicted.
* **nmt-train**: ``paranmt train-nmt``'s base preset on the card, time-boxed (``gpu_nmt_train.py``).
* **encoders**: WORD, TRIGRAM and SP pairs/s at M = 1 and M = 40 on caption pairs (``train_bench.run_case``).

**Budget.** ``--minutes`` bounds the run: a plan with each case's estimated seconds is printed first, and a case
whose estimate no longer fits what is left is recorded as skipped (``out of time``) and not started; a running
case is stopped :data:`GRACE_SECONDS` past the budget. Results are written to ``--json`` after every case, with no
machine's absolute path in them (:func:`scrub`). A case that fails records its error and no rate.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

# A GPU machine runs this file with only the bundle on its path (docs/scaling.md): this checkout first.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch

from benchmarks.embeddings.train_bench import caption_pairs, vocabularies
from benchmarks.embeddings.train_bench import run_case as run_train_case
from benchmarks.gpu import gpu_cases as cases
from benchmarks.gpu.gpu_nmt_train import read_pairs, start_preparation
from benchmarks.gpu.gpu_nmt_train import train_part as nmt_train_part
from benchmarks.gpu.gpu_pipeline import FAIL_FAST_PRIOR, fail_fast_part, fail_fast_scenarios, pipeline_part
from benchmarks.gpu.gpu_report import environment, scrub, suite_roots, write_report
from benchmarks.paths import REPO, SHARED, code_commit
from benchmarks.result import argument_parser
from translate.card import DEFAULT_MODEL_DIR

EPOCH_PAIRS = 5_000_000


def encoders_part(data: cases.Data, device: torch.device, smoke: bool, budget: cases.Budget,
                  record: Any) -> dict[str, Any]:
    """WORD, TRIGRAM and SP pairs/s at two mega-batch sizes on caption pairs, and a 5M-pair WORD epoch from them."""
    n_pairs, min_pairs, dim, megabatches = (1_200, 400, 32, (1, 4)) if smoke else (60_000, 40_000, 300, (1, 40))
    left, right, groups = caption_pairs(data.captions, n_pairs)
    vocab = vocabularies(left, right, sentencepiece=2_000 if smoke else 16_000)
    rows: list[dict[str, Any]] = []
    per_case = cases.ENCODERS_SECONDS["cpu" if smoke else "cuda"] / 6
    for model in ("word", "trigram", "sp"):
        for m in megabatches:
            refused = budget.refuse(per_case)
            if refused:
                rows.append({"model": model, "megabatch": m, "status": "skipped", "error": refused})
                continue
            case = run_train_case(model, m, device, (left, right, groups), vocab, min_pairs, dim)
            rows.append({**asdict(case), "status": "ok"})
            print(f"  {model:8s} M={m:<3d} {case.pairs_per_second:10.0f} pairs/s  mining "
                  f"{100 * case.mining_fraction:5.1f}%", flush=True)
            record({"cases": rows})
    word = [c for c in rows if c["model"] == "word" and c["status"] == "ok"]
    epoch = None
    if word:
        top = max(word, key=lambda c: c["megabatch"])
        epoch = {"pairs": EPOCH_PAIRS, "megabatch": top["megabatch"],
                 "minutes": round(EPOCH_PAIRS / top["pairs_per_second"] / 60, 2)}
    return {"pairs": n_pairs, "dim": dim, "cases": rows, "word_epoch": epoch}


# The default order is the priority: a part the budget reaches late is the one cut (a second call runs the rest).
PARTS = ("translate", "failfast", "pipeline", "nmt-train", "base", "sweep", "encoders")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--smoke", action="store_true", help="CPU, small sizes: the code paths in a minute or two")
    parser.add_argument("--bundle", type=Path, help="an unpacked gpu_bundle.py archive instead of ../shared")
    parser.add_argument("--before", type=Path, help="an older commit's packages: its pipeline runs beside this one")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated, run in the order given (the backend check first): {', '.join(PARTS)}")
    parser.add_argument("--sentences", type=int,
                        help="sentences of a steady translation case, at least (default 40,000; --smoke 24); a case "
                             f"also translates {cases.STEADY_BATCHES} batches of its bucket")
    parser.add_argument("--pipeline-sizes", default=None,
                        help="the pipeline's two input sizes in pairs (0: every pair of the bitext and the "
                             "LibreOffice corpus; default 27000,0; --smoke 60,120)")
    parser.add_argument("--workers", type=int, help="worker processes of the multi-process runs (default: cores)")
    parser.add_argument("--train-seconds", type=float,
                        help="the back-translation model's training box (default 60; --smoke 20)")
    parser.add_argument("--minutes", type=float, default=7.0,
                        help="the run's budget: a case whose estimate no longer fits is skipped, a running one is "
                             f"stopped {cases.GRACE_SECONDS:.0f} s past it")
    parser.add_argument("--stall-seconds", type=float, default=60.0,
                        help="stop a translation case that reports no progress (a loaded model, a decoded batch) "
                             "for this long")
    parser.add_argument("--check-seconds", type=float, default=60.0,
                        help="the limit of each backend's check (a few sentences, before any long case)")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    args = parser.parse_args(argv)
    args.parts = [part for part in args.parts.split(",") if part]
    unknown = sorted(set(args.parts) - set(PARTS))
    if unknown:
        parser.error(f"--parts: unknown {', '.join(unknown)} (known: {', '.join(PARTS)})")
    return args


class Suite:
    """One run: the result dictionary written (scrubbed) after every case, the budget, the parts in order."""

    def __init__(self, args: argparse.Namespace, argv: list[str]) -> None:
        self.args, self.device = args, "cpu" if args.smoke else "cuda"
        self.started = time.monotonic()
        self.work = args.work or Path(tempfile.mkdtemp(prefix="gpu-suite-"))
        self.work.mkdir(parents=True, exist_ok=True)
        self.roots = suite_roots(self.work, args.bundle)
        self.budget = cases.Budget(self.started, args.minutes * 60)
        self.limits = cases.Limits(args.stall_seconds, args.check_seconds, self.budget.end)
        self.argv = argv
        self.result: dict[str, Any] = {"code": code_commit(REPO), "device": self.device, "beam": cases.BEAM,
                                       "minutes": args.minutes, "parts": args.parts}
        self.sampler = cases.GpuSampler()
        self.data = cases.Data.locate(args.bundle, self.work)
        self.preparation = None
        if "nmt-train" in args.parts:  # CPU work: it overlaps the GPU cases
            self.preparation = start_preparation(self.data.bitexts, self.work / "nmt-train", args.smoke,
                                                 DEFAULT_MODEL_DIR / "bpe.codes")
        self.translation = cases.TranslationPart(self.data, self.work, self.device, args.sentences or cases.SENTENCES[
            self.device]["steady"], self.sampler, self.budget, self.limits, self.record)

    def record(self, key: str) -> Any:
        def write(value: Any) -> None:
            self.result[key] = value
            self.write()
        return write

    def write(self) -> None:
        self.result["seconds"] = round(time.monotonic() - self.started, 1)
        if not self.args.json:
            return
        write_report(self.args.json, self.result, self.roots, self.argv)

    def plan(self) -> None:
        """Print and record every planned case with its estimate (the priors), in order, against the budget."""
        parts, device = self.args.parts, self.device
        planned: list[tuple[str, float]] = []
        if set(parts) & {*cases.TRANSLATION_PARTS, "pipeline"}:
            planned.append(("backend check", min(cases.CHECK_PRIOR[device], self.args.check_seconds)))
        reference = [cases.REFERENCE_ROW]  # planned once, with the first translation part
        for part in parts:
            if part in cases.TRANSLATION_PARTS:
                planned += self.translation.plan([*reference, *cases.CASES[device].get(part, ())])
                reference = []
            elif part == "failfast":
                planned.append(("fail fast", FAIL_FAST_PRIOR * len(fail_fast_scenarios(device))))
            elif part == "pipeline":
                start_seconds, rate = cases.PIPELINE_PRIOR[device]
                planned += [(f"pipeline, {mode}, {n} pairs", start_seconds + n / rate)
                            for mode in ("in-process", "workers") for n in self.pipeline_sizes()[::-1]]
            elif part == "nmt-train":
                planned.append(("nmt-train", self.train_seconds() + cases.NMT_TRAIN_OVERHEAD[device]))
            elif part == "encoders":
                planned.append(("encoders", cases.ENCODERS_SECONDS[device]))
        total, budget = 0.0, self.budget.seconds
        print(f"plan ({budget:.0f} s budget; estimates from priors, a case that no longer fits is skipped):")
        for name, seconds in planned:
            total += seconds
            print(f"  {total:6.0f} s  {name}{'' if total <= budget else '  (past the budget)'}", flush=True)
        self.result["plan"] = [{"case": name, "estimate_seconds": round(s, 1)} for name, s in planned]

    def pipeline_sizes(self) -> list[int]:
        text = self.args.pipeline_sizes or ("60,120" if self.args.smoke else "27000,0")
        total = len(read_pairs(self.data.bitexts)[0])
        return [min(int(n) or total, total) for n in text.split(",")]

    def train_seconds(self) -> float:
        return self.args.train_seconds or (20.0 if self.args.smoke else 60.0)

    def nmt_train(self) -> None:
        seconds = self.train_seconds()
        estimate = seconds + cases.NMT_TRAIN_OVERHEAD[self.device]
        refused = self.budget.refuse(estimate)
        if refused:
            if self.preparation is not None:
                self.preparation.kill()
            self.record("nmt_train")({"status": "skipped", "error": refused})
            print(f"  skipped: {refused}", flush=True)
            return
        row = nmt_train_part(self.work / "nmt-train", self.device, self.args.smoke, seconds, self.preparation,
                             self.budget.left() - estimate, self.translation.sample[:4])
        self.record("nmt_train")(row)
        if row["status"] == "ok":
            czeng = row.get("czeng") or {}
            print(f"  {row['preset']}: {row['target_tokens_per_second']:.0f} target / "
                  f"{row['source_tokens_per_second']:.0f} source tokens/s; CzEng: {czeng.get('hours_per_epoch')} h "
                  f"an epoch, {czeng.get('hours')} h for {czeng.get('epochs')}; decoded: {row['decoded'][:1]}",
                  flush=True)
        else:
            print(f"  FAILED: {row.get('error')}", flush=True)

    def run_part(self, part: str) -> None:
        if part in cases.TRANSLATION_PARTS:
            print(f"{part}:", flush=True)
            self.translation.part(part)
        elif part == "failfast":
            print("fail fast (broken backends, one line each):", flush=True)
            fail_fast_part(self.work, self.device, self.record("fail_fast"))
        elif part == "pipeline":
            print("pipeline:", flush=True)
            pipeline_part(self.data, self.work, self.device, self.args.before, self.pipeline_sizes(),
                          self.args.workers or (2 if self.args.smoke else os.cpu_count() or 1), self.sampler,
                          self.budget, self.record("pipeline"), self.translation.standalone())
        elif part == "nmt-train":
            print("nmt-train (the back-translation model's base preset, time-boxed):", flush=True)
            self.nmt_train()
        elif part == "encoders":
            print("encoders (WORD, TRIGRAM, SP):", flush=True)
            self.record("encoders")(encoders_part(self.data, torch.device(self.device), self.args.smoke,
                                                  self.budget, self.record("encoders")))

    def run(self) -> None:
        self.result["environment"] = environment(self.device)
        print(json.dumps(scrub(self.result["environment"], self.roots), indent=1), flush=True)
        self.plan()
        self.write()
        try:
            if set(self.args.parts) & {*cases.TRANSLATION_PARTS, "pipeline"}:
                self.translation.check([p for p in self.args.parts if p in cases.TRANSLATION_PARTS])
            for part in self.args.parts:
                self.run_part(part)
        finally:
            self.sampler.stop()
            if self.preparation is not None and self.preparation.poll() is None:
                self.preparation.kill()
            self.write()
        print(f"suite: {time.monotonic() - self.started:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.smoke and not torch.cuda.is_available():
        print("error: no CUDA device visible: run with --smoke to check the suite on the CPU", file=sys.stderr)
        return 2
    if args.bundle is None and not SHARED.is_dir():
        print(f"error: {SHARED} is absent: pass --bundle (benchmarks/gpu/gpu_bundle.py) or put ../shared beside the "
              "repository", file=sys.stderr)
        return 2
    Suite(args, sys.argv[1:] if argv is None else argv).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
