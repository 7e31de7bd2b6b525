"""One call for a machine with a GPU: back-translation and trainer throughput in one JSON and one table.

    .venv/bin/python benchmarks/gpu_suite.py --json gpu.json                # CUDA: under 10 minutes
    .venv/bin/python benchmarks/gpu_suite.py --device cpu --small           # the same code on CPU, in seconds

**Back-translation** at beam 12 through the pipeline's ``Translator`` (``benchmarks/translate_bench.py``'s cases):
a transformer-base-sized model (fairseq's ``transformer_wmt_en_de``: 6+6 layers of 512, FFN 2048, 8 heads; one
update of ``translate.train``'s ``base`` preset on Tatoeba, so its weights are as good as random — speed does
not depend on them; the length cap bounds the output instead of EOS), decoded by CTranslate2 ``float16`` and
``int8_float16`` and by fairseq (``float32`` and ``int8`` on CPU): sentences/s and target tokens/s. ``--model DIR``
times a real model directory instead.

**Trainer** (``benchmarks/train_bench.py``'s cases): pairs/s of WORD, TRIGRAM and LSTM at M = 1 and M = 40 on real
caption pairs with the paper's sizes (300-d), the share of a mega-batch step spent mining negatives, and the time
of a 5M-pair WORD epoch at M = 40 extrapolated from the measured steps (pairs / pairs-per-second).

``--small`` (CPU smoke, run by the default test suite): the tiny preset, 24 sentences with a short length cap,
50-d encoders at M = 1 and 4 on 2,400 pairs — the same code paths, so the suite is known to run wherever a GPU
is at hand. Without ``../shared/data`` it stops with a one-line error.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import pyarrow as pa  # noqa: E402
import torch  # noqa: E402
from train_bench import caption_pairs, run_case  # noqa: E402
from translate_bench import Case  # noqa: E402
from translate_bench import run_case as run_translation_case  # noqa: E402

from train_embeddings.vocab import (  # noqa: E402
    TrigramVocab,
    WordVocab,
    count_trigrams,
    count_words,
    sentence_strings,
)
from translate.ct2_backend import BackendUnavailable  # noqa: E402
from translate.demo import TATOEBA_TRAIN_PAIRS, cached_model  # noqa: E402
from translate.train import PRESETS  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
EPOCH_PAIRS = 5_000_000


def throughput_model(small: bool) -> Path:
    """A model directory of the right size for speed: one update of the base (or, ``small``, tiny) preset."""
    lines = {side: (SHARED / "bitext" / f"tatoeba.{side}").read_text(encoding="utf-8").splitlines()
             for side in ("cs", "en")}
    cs, en = lines["cs"][:TATOEBA_TRAIN_PAIRS], lines["en"][:TATOEBA_TRAIN_PAIRS]
    preset = PRESETS["tiny" if small else "base"]
    recipe = preset.model_copy(update={"max_update": 1, "max_epoch": 1, "patience": 0, "average_last": 0,
                                       "save_interval_updates": 0, "update_freq": 1, "bpe_merges": 2000 if small
                                       else 8000, "fp16": False})
    return cached_model(f"gpu-suite-{'tiny' if small else 'base'}-cs-en", cs, en, recipe)


def translation_cases(model: Path, device: str, sentences: list[str], max_len: int, threads: int) -> list[Case]:
    compute = ["float16", "int8_float16"] if device == "cuda" else ["float32", "int8"]
    cases = [Case("ctranslate2", c, threads, device) for c in compute]
    cases.append(Case("fairseq", "float16" if device == "cuda" else "float32", threads, device))
    for case in cases:
        try:
            run_translation_case(case, model, sentences, beam=12, max_len=max_len, batch_tokens=8192, repeats=1)
        except BackendUnavailable as error:
            case.note = f"not run: {error}"
    return cases


def trainer_cases(device: torch.device, small: bool) -> tuple[list, dict]:
    n_pairs, min_pairs, dim, megabatches = (2_400, 800, 50, (1, 4)) if small else (20_000, 8_000, 300, (1, 40))
    left, right, groups = caption_pairs(SHARED / "paraphrase" / "multi30k-captions", n_pairs)
    both = pa.chunked_array([left, right])
    vocab = (WordVocab.build(count_words(both)), TrigramVocab.build(count_trigrams(sentence_strings(both))))
    cases = [run_case(model, m, device, (left, right, groups), vocab, min_pairs, 0, dim)
             for model in ("word", "trigram", "lstm") for m in megabatches]
    word = max((c for c in cases if c.model == "word"), key=lambda c: c.megabatch)
    epoch = {"pairs": EPOCH_PAIRS, "megabatch": word.megabatch,
             "minutes": round(EPOCH_PAIRS / word.pairs_per_second / 60, 1)}
    return cases, epoch


def table(result: dict) -> str:
    rows = [f"device {result['device']} ({result['device_name']}), model {result['model']}",
            "", f"{'back-translation, beam 12':30s} {'sent/s':>9s} {'tok/s':>9s} {'out len':>8s}  note"]
    for c in result["translation"]:
        label = f"{c['backend']} {c['ran_compute_type'] or c['compute_type']}"
        rows.append(f"{label:30s} {c['sentences_per_second']:9.1f} {c['target_tokens_per_second']:9.0f} "
                    f"{c['mean_output_tokens']:8.1f}  {c['note']}")
    rows += ["", f"{'trainer':30s} {'pairs/s':>9s} {'mining':>9s}"]
    for c in result["trainer"]:
        rows.append(f"{c['model'] + ' M=' + str(c['megabatch']):30s} {c['pairs_per_second']:9.0f} "
                    f"{100 * c['mining_fraction']:8.1f}%")
    epoch = result["word_epoch"]
    rows.append(f"\n5M-pair WORD epoch at M={epoch['megabatch']}: {epoch['minutes']} min (extrapolated)")
    rows.append(f"suite wall time {result['seconds']:.0f} s")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--small", action="store_true", help="CPU smoke sizes (seconds)")
    parser.add_argument("--model", type=Path, help="a model directory to time instead of the base-sized one")
    parser.add_argument("--sentences", type=int, help="Czech sentences to translate (default 2,000; --small 24)")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for decoding and training")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("error: no CUDA device visible: run with --device cpu --small to check the suite on CPU",
              file=sys.stderr)
        return 2
    if not SHARED.is_dir():
        print(f"error: {SHARED} is absent: the suite reads Tatoeba and the Multi30k captions from it",
              file=sys.stderr)
        return 2
    started = time.perf_counter()
    torch.set_num_threads(args.threads)
    logging.basicConfig(level=logging.WARNING, force=True)
    model = args.model or throughput_model(args.small)
    logging.getLogger().setLevel(logging.WARNING)  # fairseq's loggers raise the root level while training
    n = args.sentences or (24 if args.small else 2000)
    sentences = (SHARED / "bitext" / "tatoeba.cs").read_text(encoding="utf-8").splitlines()[-n:]
    translation = translation_cases(model, args.device, sentences, 24 if args.small else 128, args.threads)
    trainer, epoch = trainer_cases(torch.device(args.device), args.small)
    result = {"device": args.device,
              "device_name": torch.cuda.get_device_name(0) if args.device == "cuda"
              else f"{platform.machine()}, {os.cpu_count()} cores, {args.threads} thread(s)",
              "model": str(model), "sentences": n, "torch": torch.__version__,
              "translation": [asdict(c) for c in translation], "trainer": [asdict(c) for c in trainer],
              "word_epoch": epoch, "seconds": round(time.perf_counter() - started, 1)}
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
