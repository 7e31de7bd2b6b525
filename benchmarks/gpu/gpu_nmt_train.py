"""The back-translation model trained on the card: ``gpu_suite.py``'s ``nmt-train`` part.

A user with a large bitext trains a base-sized model (``paranmt train-nmt --preset base``) before anything else.
This part runs that preset's recipe (:data:`translate.train_recipe.PRESETS`, ``--smoke``: ``tiny`` on the CPU) through
``translate.train``'s own steps on the bitext and the LibreOffice corpus, time-boxed:

1. **preparation** (CPU only, started in a background process at the suite's start so the GPU cases overlap it):
   ``train-nmt``'s steps (``translate.train``'s Moses tokenisation, held-out split, BPE, length cap and fairseq
   binarisation with a joint dictionary) except learning BPE: the preset's 32,000 merges take subword-nmt minutes
   on one core (about 30 merges/s on this project's loaded 2-core machine), past the run's budget, so the codes are
   small-cs-en's (8,000 joint merges). The vocabulary is therefore smaller than the preset's: its output layer,
   a share of each step, costs less, and the rate is an upper bound for the preset's own vocabulary;
2. **training**: ``fairseq-train`` with the preset's arguments (``translate.train.fairseq_train_args``: fp16 on a
   GPU) stopped by fairseq's own ``--stop-time-hours`` after ``seconds``, with one checkpoint and one validation at
   the stop (no epoch checkpoints in between: their writes would be timed as training);
3. **the checkpoint converts and decodes**: ``translate.convert.convert_fairseq`` to a model directory, which the
   pipeline's translator loads on the same device and uses on a few Czech sentences.

Rates come from fairseq's ``train_inner`` log lines after the first one (its warm-up): target tokens/s (fairseq's
``wpb`` per update over the ``wall`` clock), source tokens/s (target tokens/s times the training split's ratio of
source to target tokens, EOS included: batches are drawn from the whole split). The CzEng projection: 51.4M pairs
(``benchmarks/pipeline/scale_anchors.json``) at this bitext's target tokens per pair, per epoch and at the preset's
epoch cap (the ParaNMT paper used a pretrained model and states no epochs; ``max_epoch`` is the preset's bound, early
stopping may end sooner).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.paths import REPO
from benchmarks.result import argument_parser
from configs.schema import TranslateConfig
from translate import train as nmt_train
from translate.convert import convert_fairseq
from translate.loading import load_translator
from translate.train_recipe import PRESETS, TrainRecipe
from translate.translator import Status

ANCHORS = REPO / "benchmarks" / "pipeline" / "scale_anchors.json"
SMOKE_PAIRS = 600  # --smoke: the first pairs of the bitext, tiny preset
PREPARED = "prepared.json"


def read_pairs(folders: tuple[Path, ...]) -> tuple[list[str], list[str]]:
    """Every pair of the folders' ``*.cs`` / ``*.en`` files (by folder, then by name)."""
    cs: list[str] = []
    en: list[str] = []
    for folder in folders:
        for path in sorted(folder.glob("*.cs")):
            if path.with_suffix(".en").exists():
                cs += path.read_text(encoding="utf-8").splitlines()
                en += path.with_suffix(".en").read_text(encoding="utf-8").splitlines()
    return cs, en


def recipe_for(smoke: bool, seconds: float, threads: int) -> tuple[str, TrainRecipe]:
    """The preset, time-boxed: no epoch or update cap, no early stopping, no averaging (one checkpoint)."""
    name = "tiny" if smoke else "base"
    update = {"max_hours": seconds / 3600, "max_epoch": 0, "max_update": 0, "patience": 0, "average_last": 0,
              "save_interval_updates": 0, "threads": threads}
    return name, PRESETS[name].model_copy(update=update)


def split_and_encode(cs: list[str], en: list[str], recipe: TrainRecipe, codes: Path, work: Path) -> dict[str, int]:
    """``train-nmt``'s preparation with given BPE codes: Moses, the preset's held-out split (seeded), BPE, the
    preset's length cap; ``work/{train,valid}.{cs,en}``; the pair counts."""
    source, target = nmt_train.moses_lines(cs, "cs"), nmt_train.moses_lines(en, "en")
    keep = [i for i, (s, t) in enumerate(zip(source, target, strict=True)) if s.strip() and t.strip()]
    random.Random(recipe.seed).shuffle(keep)
    n_valid = min(max(1, int(len(keep) * recipe.valid_fraction)), recipe.valid_max or len(keep))
    counts = {}
    for split, indices in (("valid", sorted(keep[:n_valid])), ("train", sorted(keep[n_valid:]))):
        pairs = zip(*(nmt_train.apply_bpe(codes, [side[i] for i in indices]) for side in (source, target)), strict=True)
        fits = [(s, t) for s, t in pairs if len(s.split()) <= recipe.max_len and len(t.split()) <= recipe.max_len]
        for k, side in enumerate(("cs", "en")):
            (work / f"{split}.{side}").write_text("".join(pair[k] + "\n" for pair in fits), encoding="utf-8")
        counts[split] = len(fits)
    counts["dropped"] = len(cs) - counts["train"] - counts["valid"]
    return counts


def prepare(folders: tuple[Path, ...], work: Path, smoke: bool, codes: Path) -> None:
    """Step 1 in this process: ``work/train.{cs,en}``, ``work/valid.*``, ``work/bpe.codes``, ``work/data-bin``,
    then ``work/prepared.json`` (counts and seconds) last, so its presence means done."""
    started = time.monotonic()
    cs, en = read_pairs(folders)
    if smoke:
        cs, en = cs[:SMOKE_PAIRS], en[:SMOKE_PAIRS]
    _, recipe = recipe_for(smoke, 60, os.cpu_count() or 1)
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(codes, work / "bpe.codes")
    counts: dict[str, Any] = split_and_encode(cs, en, recipe, work / "bpe.codes", work)
    nmt_train._binarise(recipe, work, work / "data-bin", recipe.threads, work / "prepare.log")
    tokens = {side: sum(len(line.split()) + 1 for line in (work / f"train.{side}").open(encoding="utf-8"))
              for side in ("cs", "en")}
    vocabulary = sum(1 for _ in (work / "data-bin" / "dict.en.txt").open(encoding="utf-8"))
    counts.update(pairs=len(cs), source_tokens=tokens["cs"], target_tokens=tokens["en"], vocabulary=vocabulary,
                  bpe_merges=sum(1 for line in codes.open(encoding="utf-8") if not line.startswith("#")),
                  seconds=round(time.monotonic() - started, 1))
    (work / PREPARED).write_text(json.dumps(counts), encoding="utf-8")


def start_preparation(folders: tuple[Path, ...], work: Path, smoke: bool, codes: Path) -> subprocess.Popen[bytes]:
    """Step 1 in a background process at low priority (this script run as ``--prepare``), its output in a log."""
    work.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "benchmarks.gpu.gpu_nmt_train", "--prepare", "--work", str(work), "--codes",
               str(codes), *("--smoke",) * smoke, *(str(f) for f in folders)]
    with (work / "prepare-stdout.log").open("wb") as log:
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=REPO,
                                preexec_fn=lambda: os.nice(10))


def wait_for_preparation(process: subprocess.Popen[bytes], work: Path, seconds: float) -> str | None:
    """None when the preparation finished within ``seconds``, else why not (and it is stopped)."""
    try:
        code = process.wait(timeout=max(seconds, 0.0))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return f"its preparation (Moses, BPE, binarisation) was not done in time ({seconds:.0f} s left)"
    if code or not (work / PREPARED).is_file():
        log = (work / "prepare-stdout.log").read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return f"its preparation failed (exit {code}): {log[-1] if log else 'no output'}"
    return None


def training_rates(log_file: Path) -> dict[str, Any]:
    """Target tokens/s from fairseq's ``train_inner`` lines after the first (its warm-up): the tokens of the
    updates logged since, over the ``wall`` clock between the first line and the last."""
    parsed = [nmt_train.parse_log_line(line) for line in log_file.read_text(encoding="utf-8").splitlines()]
    lines = [p[1] for p in parsed if p is not None and p[0] == "train_inner"]
    if len(lines) < 2 or not all("wall" in v and "wpb" in v for v in lines):
        return {"log_lines": len(lines), "target_tokens_per_second": None}
    tokens = sum(v["wpb"] * (v["num_updates"] - u["num_updates"]) for u, v in itertools.pairwise(lines))
    seconds = lines[-1]["wall"] - lines[0]["wall"]
    updates = lines[-1]["num_updates"] - lines[0]["num_updates"]
    return {"log_lines": len(lines), "updates": int(lines[-1]["num_updates"]), "steady_updates": int(updates),
            "steady_seconds": round(seconds, 2), "last_loss": lines[-1].get("loss"),
            "target_tokens_per_second": round(tokens / seconds, 1) if seconds > 0 else None}


def czeng_projection(prepared: dict[str, Any], target_per_second: float | None, recipe: TrainRecipe
                     ) -> dict[str, Any] | None:
    """Hours of training at the measured rate over CzEng's pairs (at this bitext's target tokens per pair): per
    epoch and at the base preset's epoch cap."""
    if not target_per_second:
        return None
    anchors = json.loads(ANCHORS.read_text(encoding="utf-8"))
    per_pair = prepared["target_tokens"] / prepared["train"]
    epoch_hours = anchors["czeng_pairs"] * per_pair / target_per_second / 3600
    epochs = PRESETS["base"].max_epoch
    return {"pairs": anchors["czeng_pairs"], "target_tokens_per_pair": round(per_pair, 2),
            "hours_per_epoch": round(epoch_hours, 2), "epochs": epochs,
            "hours": round(epoch_hours * epochs, 1),
            "epochs_note": f"the base preset's max_epoch ({epochs}, an upper bound: patience "
                           f"{PRESETS['base'].patience} may stop it sooner); the paper states none",
            "recipe_max_tokens_per_update": recipe.max_tokens * recipe.update_freq}


def decode_check(work: Path, device: str, sentences: list[str]) -> dict[str, Any]:
    """The stopped run's last checkpoint, converted to a model directory, translating ``sentences`` on
    ``device`` through the pipeline's translator (a few seconds of training: the words need not be right)."""
    checkpoint = nmt_train.strip_optimizer(work / "checkpoints" / "checkpoint_last.pt", work / "checkpoint.pt")
    model = convert_fairseq(checkpoint, work / "data-bin", work / "model", bpe_codes=work / "bpe.codes",
                            keep_checkpoint=False, name="nmt-train-check")
    translator = load_translator(TranslateConfig(model=model, backend="ctranslate2", device=device, beam_size=4,
                                                 max_decoding_length=64))
    done = translator.translate(sentences)
    ok = all(t.status is Status.OK for t in done) and any(t.hypothesis for t in done)
    return {"converted": True, "decoded_ok": ok, "decoded": [t.hypothesis[:200] for t in done]}


def train_part(work: Path, device: str, smoke: bool, seconds: float, process: subprocess.Popen[bytes] | None,
               wait_seconds: float, sentences: list[str]) -> dict[str, Any]:
    """Steps 2 and 3 after the background preparation: the row the suite records (``status`` ok or failed)."""
    name, recipe = recipe_for(smoke, seconds, os.cpu_count() or 1)
    row: dict[str, Any] = {"preset": name, "device": device, "seconds_box": seconds, "status": "failed"}
    problem = wait_for_preparation(process, work, wait_seconds) if process is not None else "not prepared"
    if problem:
        row["error"] = problem
        return row
    prepared = json.loads((work / PREPARED).read_text(encoding="utf-8"))
    row["prepared"] = prepared
    args = [*nmt_train.fairseq_train_args(recipe, work / "data-bin", work / "checkpoints", device),
            "--save-interval", "100000", "--validate-interval", "100000", "--log-interval",
            "1" if name == "tiny" else "20"]
    started = time.monotonic()
    try:
        nmt_train.run_fairseq(args, recipe.threads, work / "train.log")
    except RuntimeError as error:
        row["error"] = str(error).splitlines()[0]
        row["log_tail"] = (work / "train.log").read_text(encoding="utf-8", errors="replace").splitlines()[-20:]
        return row
    row["process_seconds"] = round(time.monotonic() - started, 1)
    rates = training_rates(work / "train.log")
    row.update(rates)
    target = rates.get("target_tokens_per_second")
    if target:
        row["source_tokens_per_second"] = round(target * prepared["source_tokens"] / prepared["target_tokens"], 1)
    row["czeng"] = czeng_projection(prepared, target, recipe)
    try:
        row.update(decode_check(work, device, sentences))
    except Exception as error:  # a conversion or decode that fails is this part's finding
        row["error"] = f"the checkpoint did not convert or decode: {type(error).__name__}: {error}"
        return row
    if target and row["decoded_ok"]:
        row["status"] = "ok"
    else:
        row["error"] = "no steady rate (fewer than two log lines)" if not target else "the checkpoint decoded nothing"
    return row


if __name__ == "__main__":  # the background preparation
    parser = argument_parser(__file__, "step 1 of the nmt-train part (gpu_suite.py starts it)")
    parser.add_argument("--prepare", action="store_true", required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--codes", type=Path, required=True)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args()
    prepare(tuple(args.folders), args.work, args.smoke, args.codes)
