"""Back-translation throughput: fairseq vs CTranslate2 (float32, int8) on the same model and the same sentences.

Every case decodes the same sentences at the same beam (12), length cap and token-bucket size through the same
``Translator`` (so preprocessing and batching are identical); fairseq runs its batched ``SequenceGenerator``
under ``torch.inference_mode()`` with the same thread count. Reported: sentences/s, target tokens/s, mean output
length, and each case's speed-up over fairseq at the same thread count, all measured in this run. The default
model is the "small" Tatoeba model (3+3 layers of 256, trained here once and cached); the default sentences are
the last 2,000 Czech lines of ../shared/data/bitext/tatoeba.cs (1,824 of them unseen in training).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.paths import SHARED, shown
from benchmarks.result import argument_parser, write_result
from benchmarks.timing import Times
from configs.schema import TranslateConfig
from translate.cached_models import tatoeba_model
from translate.loading import load_translator
from translate.translator import BackendUnavailable

DEFAULT_BITEXT = SHARED / "data" / "bitext"


@dataclass
class Case:
    backend: str
    compute_type: str  # as requested
    threads: int
    device: str
    ran_backend: str = ""
    ran_compute_type: str = ""
    seconds: float = 0.0
    sentences_per_second: float = 0.0
    target_tokens_per_second: float = 0.0
    mean_output_tokens: float = 0.0
    hit_length_cap: int = 0
    speedup_vs_fairseq: float | None = None
    note: str = ""


def run_case(case: Case, model: Path, sentences: list[str], beam: int, max_len: int,
             batch_tokens: int, repeats: int = 1) -> list[str]:
    config = TranslateConfig(model=model, backend=case.backend, device=case.device, compute_type=case.compute_type,
                             threads=case.threads, beam_size=beam, max_decoding_length=max_len,
                             max_batch_tokens=batch_tokens)
    translator = load_translator(config)
    case.ran_backend, case.ran_compute_type = translator.backend.name, str(translator.backend.compute_type)
    translator.translate(sentences[:32])  # warm-up: lazy initialisation, caches, CUDA kernels
    timings = Times()
    for _ in range(repeats):  # best of N: the least disturbed run on a shared machine
        results = timings.run(lambda: translator.translate(sentences))
    case.seconds = timings.best
    tokens = sum(len(t.tokens) for t in results)
    case.sentences_per_second = len(sentences) / case.seconds
    case.target_tokens_per_second = tokens / case.seconds
    case.mean_output_tokens = tokens / len(sentences)
    case.hit_length_cap = sum(t.hit_length_cap for t in results)
    return [t.hypothesis for t in results]


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser(__file__, __doc__, result=True)
    parser.add_argument("--model", type=Path, help="model directory with CT2 and fairseq (default: a small Tatoeba "
                        "model trained here once, ~5 min, and cached)")
    parser.add_argument("--input", type=Path, help="Czech sentences, one per line (default: Tatoeba's last lines)")
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="CPU thread counts to compare")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--beam", type=int, default=12)
    parser.add_argument("--max-decoding-length", type=int, default=256)
    parser.add_argument("--max-batch-tokens", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=2, help="timed runs per case; the best is reported")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    if args.input is None:
        if not DEFAULT_BITEXT.exists():
            parser.error(f"{DEFAULT_BITEXT} is absent: pass --input (and --model)")
        sentences = (DEFAULT_BITEXT / "tatoeba.cs").read_text(encoding="utf-8").splitlines()[-args.sentences:]
    else:
        sentences = args.input.read_text(encoding="utf-8").splitlines()[: args.sentences]
    if args.model is None:
        args.model = tatoeba_model(DEFAULT_BITEXT, "small")
    gpu_types = ["float16", "int8_float16"] if args.device == "cuda" else ["float32", "int8"]
    cases = [Case(backend, compute, threads, args.device)
             for threads in args.threads
             for backend, compute in [("fairseq", "float16" if args.device == "cuda" else "float32"),
                                      *[("ctranslate2", c) for c in gpu_types]]]
    print(f"model {args.model}\n{len(sentences)} sentences, beam {args.beam}, device {args.device}, "
          f"length cap {args.max_decoding_length}, {args.max_batch_tokens} tokens per batch, "
          f"best of {args.repeats}", flush=True)
    reference: dict[int, list[str]] = {}
    for case in cases:
        try:
            hypotheses = run_case(case, args.model, sentences, args.beam, args.max_decoding_length,
                                  args.max_batch_tokens, args.repeats)
        except BackendUnavailable as error:
            case.note = f"not run: {error}"
            print(f"{case.backend} {case.compute_type}: {case.note}", flush=True)
            continue
        if case.backend == "fairseq":
            reference[case.threads] = hypotheses
        elif case.threads in reference and case.compute_type in ("float32", "float16"):
            same = sum(a == b for a, b in zip(hypotheses, reference[case.threads], strict=True))
            case.note = f"top-1 equal to fairseq: {same / len(sentences):.1%}"
        print(f"  {case.ran_backend:12s} {case.ran_compute_type:14s} threads {case.threads}: "
              f"{case.sentences_per_second:8.1f} sent/s", flush=True)
    baseline = {c.threads: c.sentences_per_second for c in cases if c.backend == "fairseq" and c.seconds}
    for case in cases:
        if case.seconds and case.threads in baseline:
            case.speedup_vs_fairseq = case.sentences_per_second / baseline[case.threads]

    header = f"{'backend':12s} {'compute':14s} {'thr':>3s} {'sent/s':>9s} {'tok/s':>9s} {'out len':>7s} " \
             f"{'capped':>6s} {'vs fairseq':>10s}  note"
    print("\n" + header + "\n" + "-" * len(header))
    for c in cases:
        if not c.seconds:
            print(f"{c.backend:12s} {c.compute_type:14s} {c.threads:3d}  {c.note}")
            continue
        print(f"{c.ran_backend:12s} {c.ran_compute_type:14s} {c.threads:3d} {c.sentences_per_second:9.1f} "
              f"{c.target_tokens_per_second:9.0f} {c.mean_output_tokens:7.1f} {c.hit_length_cap:6d} "
              f"{c.speedup_vs_fairseq or 0:9.2f}x  {c.note}")
    write_result(args.json, {"model": shown(args.model), "sentences": len(sentences), "beam": args.beam,
                             "cases": [asdict(c) for c in cases]}, __file__, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
