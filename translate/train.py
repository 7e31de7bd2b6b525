"""Train a back-translation model by the recipe of :mod:`translate.train_recipe` (its steps and presets): the
bitext read and prepared, fairseq's preprocessing and training run as subprocesses, the checkpoints averaged and
converted to CTranslate2, and the model card written. A run folder is resumable: rerun the same command after a kill
and it continues from the last finished stage and fairseq's last checkpoint; a folder holding a different run is
refused unless ``--overwrite``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow as pa
from pydantic import JsonValue
from sacremoses import MosesPunctNormalizer, MosesTokenizer
from subword_nmt.learn_bpe import learn_bpe
from tqdm import tqdm

from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import SchemaMismatch
from paranmt.core.parquet_inputs import read_parquet_input
from paranmt.core.plotting import pyplot
from paranmt.core.run_definition import (
    DEFINITION_FILE,
    check_same_run,
    definition_text,
    run_definition,
)
from paranmt.core.run_layout import TRAIN
from translate.card import (
    FairseqSpec,
    ModelCard,
    ModelDir,
    ModelDirError,
    PostprocessSpec,
    PreprocessSpec,
    write_card,
)
from translate.convert import fairseq_to_ctranslate2
from translate.cpu_kernel import import_ctranslate2
from translate.text_chain import load_bpe, moses_words
from translate.train_recipe import TrainRecipe

log = logging.getLogger(__name__)

CURVE_FILE = "training_curve.png"


class TrainError(ParanmtError, ValueError):
    """Bad training input or a run folder that cannot be used; the message names the file or field and the fix."""


# ---- reading the bitext ---------------------------------------------------------------------------------------


def _read_lines(path: Path) -> list[str]:
    if not path.is_file():
        raise TrainError(f"{path}: no such file; give an existing line-aligned bitext file")
    try:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8", newline="\n") as handle:
            return [line.rstrip("\r\n") for line in handle]
    except (UnicodeDecodeError, OSError, EOFError) as error:
        raise TrainError(f"{path}: cannot be read as UTF-8 text ({error}); give a plain or .gz UTF-8 file") from None


def read_pair_files(cs_files: Sequence[Path], en_files: Sequence[Path]) -> tuple[list[str], list[str]]:
    """Concatenated line-aligned pair files; misaligned files are an error naming both."""
    if len(cs_files) != len(en_files):
        raise TrainError(f"{len(cs_files)} Czech file(s) but {len(en_files)} English file(s): give one "
                         "--en per --cs, in the same order")
    cs_all: list[str] = []
    en_all: list[str] = []
    for cs_path, en_path in zip(cs_files, en_files, strict=True):
        cs, en = _read_lines(Path(cs_path)), _read_lines(Path(en_path))
        if len(cs) != len(en):
            raise TrainError(f"{cs_path} has {len(cs)} lines but {en_path} has {len(en)}: the files are not "
                             "line-aligned; fix them (one sentence pair per line number)")
        cs_all += cs
        en_all += en
    return cs_all, en_all


def read_tsv(path: Path, cs_column: int, en_column: int, header: bool) -> tuple[list[str], list[str]]:
    rows = _read_lines(path)[1 if header else 0:]
    cs, en = [], []
    for number, row in enumerate(rows, start=2 if header else 1):
        fields = row.split("\t")
        if len(fields) <= max(cs_column, en_column):
            raise TrainError(f"{path}:{number} has {len(fields)} column(s); need columns {cs_column} and "
                             f"{en_column} (set --cs-column/--en-column)")
        cs.append(fields[cs_column])
        en.append(fields[en_column])
    return cs, en


def read_parquet(path: str, cs_column: str, en_column: str) -> tuple[list[str], list[str]]:
    """The two text columns of a Parquet input, resolved as every command resolves one
    (:func:`paranmt.core.parquet_inputs.read_parquet_input`: a file, a folder of shards, a pattern; a run folder is
    read at its ``train/``, the pairs a run selected for training); a null text is an empty side."""
    try:
        found = read_parquet_input(path, required=(cs_column, en_column), run_part=TRAIN, what="--parquet")
    except SchemaMismatch as error:
        raise TrainError(f"{error}: set --cs-column/--en-column to the text columns") from None
    for name in (cs_column, en_column):
        type_ = found.schema.field(name).type
        if not (pa.types.is_string(type_) or pa.types.is_large_string(type_)):
            raise TrainError(f"--parquet {path}: column {name!r} is {type_}, not a string; set "
                             "--cs-column/--en-column to the text columns")
    table = found.dataset().to_table(columns=[cs_column, en_column])
    cs, en = table.column(cs_column).to_pylist(), table.column(en_column).to_pylist()
    return [x or "" for x in cs], [x or "" for x in en]


# ---- text preparation -----------------------------------------------------------------------------------------


def moses_lines(lines: Sequence[str], lang: str, progress: Callable[[int], None] | None = None) -> list[str]:
    """Moses punctuation normalisation + tokenisation, exactly as the model card's text chain does it."""

    normalizer, tokenizer = MosesPunctNormalizer(lang=lang), MosesTokenizer(lang=lang)
    out = []
    for i, line in enumerate(lines, start=1):
        out.append(moses_words(line, normalizer, tokenizer))
        if progress is not None and i % 5000 == 0:
            progress(5000)
    if progress is not None:
        progress(len(out) % 5000)
    return out


def apply_bpe(codes: Path, lines: Sequence[str]) -> list[str]:
    bpe = load_bpe(codes)
    return [bpe.process_line(line) for line in lines]


def _definition(recipe: TrainRecipe, source: Sequence[str], target: Sequence[str],
                valid: tuple[Sequence[str], Sequence[str]] | None) -> dict[str, JsonValue]:
    """What makes two training runs the same run: the recipe but its budget, and the data (its SHA-256)."""
    digest = hashlib.sha256()
    for part in (source, target, *(valid or ())):
        for line in part:
            digest.update(line.encode("utf-8", "surrogateescape") + b"\n")
        digest.update(b"\x00")
    return run_definition(recipe, data=f"sha256:{digest.hexdigest()[:16]}")


# ---- fairseq --------------------------------------------------------------------------------------------------

_KV_PIPE = re.compile(r"\|\s*([a-z_]+)\s+(-?[0-9.]+(?:e-?\d+)?)\b")
_KV_EQ = re.compile(r"\b([a-z_]+)=(-?[0-9.]+(?:e-?\d+)?)")


def parse_log_line(line: str) -> tuple[str, dict[str, float]] | None:
    """A fairseq ``--log-format simple`` line -> ("train_inner" | "train" | "valid", numbers) or None."""
    for kind, marker in (("valid", "| valid |"), ("train", "| train |"), ("train_inner", "| train_inner |")):
        if marker in line:
            pattern = _KV_EQ if kind == "train_inner" else _KV_PIPE
            values = {k: float(v) for k, v in pattern.findall(line.split(marker, 1)[1])}
            return (kind, values) if "num_updates" in values else None
    return None


def _thread_env(threads: int) -> dict[str, str]:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               # the checkpoints fairseq loads here are the ones this run wrote
               TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD="1")
    # OpenMP threads that spin while waiting burn the cores other jobs need (docs/translate-models.md measures
    # it). Passive waiting changes no result.
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def run_fairseq(args: list[str], threads: int, log_file: Path,
                on_line: Callable[[str], None] | None = None) -> None:
    """Run a fairseq command line tool in a child process, its output appended to ``log_file`` line by line."""
    with log_file.open("a", encoding="utf-8") as out:
        process = subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   env=_thread_env(threads), text=True, bufsize=1)
        assert process.stdout is not None
        try:
            for line in process.stdout:
                out.write(line)
                out.flush()
                if on_line is not None:
                    on_line(line)
        finally:
            code = process.wait()
    if code != 0:
        tail = log_file.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"`{' '.join(args[:1])}` failed (exit {code}); log {log_file}:\n{tail}")


def _model_args(recipe: TrainRecipe) -> list[str]:
    args = ["--arch", recipe.arch]
    for flag, value in (("layers", recipe.layers), ("embed-dim", recipe.embed_dim),
                        ("ffn-embed-dim", recipe.ffn_dim), ("attention-heads", recipe.heads)):
        if value is not None:
            args += [f"--encoder-{flag}", str(value), f"--decoder-{flag}", str(value)]
    args += ["--share-all-embeddings"] if recipe.share_all_embeddings else ["--share-decoder-input-output-embed"]
    return args


def fairseq_train_args(recipe: TrainRecipe, data_bin: Path, save_dir: Path, device: str) -> list[str]:
    criterion = (["--criterion", "label_smoothed_cross_entropy", "--label-smoothing", str(recipe.label_smoothing)]
                 if recipe.label_smoothing else ["--criterion", "cross_entropy"])
    args = ["fairseq_cli.train", str(data_bin), "--task", "translation", "--source-lang", "cs",
            "--target-lang", "en", *_model_args(recipe), "--dropout", str(recipe.dropout),
            "--optimizer", "adam", "--adam-betas", "(0.9, 0.98)", "--lr", str(recipe.lr),
            "--lr-scheduler", "inverse_sqrt", "--warmup-updates", str(recipe.warmup_updates),
            "--weight-decay", str(recipe.weight_decay), "--clip-norm", str(recipe.clip_norm), *criterion,
            "--max-tokens", str(recipe.max_tokens), "--update-freq", str(recipe.update_freq),
            "--max-epoch", str(recipe.max_epoch), "--max-update", str(recipe.max_update),
            "--save-dir", str(save_dir), "--seed", str(recipe.seed), "--num-workers", "0",
            "--skip-invalid-size-inputs-valid-test",
            "--log-format", "simple", "--log-interval", "50", "--no-progress-bar"]
    if recipe.max_hours:
        args += ["--stop-time-hours", str(recipe.max_hours)]
    if recipe.patience:
        args += ["--patience", str(recipe.patience)]
    if recipe.save_interval_updates:
        args += ["--save-interval-updates", str(recipe.save_interval_updates), "--keep-interval-updates", "1"]
    if recipe.average_last:
        args += ["--keep-last-epochs", str(recipe.average_last)]
    else:
        args += ["--no-epoch-checkpoints"]
    if device == "cpu":
        args += ["--cpu"]
    elif recipe.fp16:
        args += ["--fp16"]
    return args


def _torch() -> ModuleType:
    """torch, on first use: ``paranmt train-nmt --help`` and the data preparation need none of its loading time
    (training itself runs in fairseq's own process)."""
    import torch

    return torch


def _load(path: Path) -> dict[str, Any]:
    # This run's own checkpoints: they pickle fairseq's config objects, which weights-only loading refuses.
    return _torch().load(path, map_location="cpu", weights_only=False)


def average_checkpoints(paths: Sequence[Path], out: Path) -> Path:
    """The element-wise mean of the checkpoints' parameters, saved with the last one's config, no optimizer."""
    torch = _torch()
    paths = list(paths)
    total: dict[str, Any] = {}
    last: dict[str, Any] = {}
    for path in paths:
        last = _load(path)
        for name, tensor in last["model"].items():
            value = tensor.detach().to(torch.float64)
            total[name] = total[name] + value if name in total else value
    last["model"] = {name: (value / len(paths)).to(last["model"][name].dtype) for name, value in total.items()}
    last["last_optimizer_state"] = None
    torch.save(last, out)
    return out


def strip_optimizer(path: Path, out: Path) -> Path:
    state = _load(path)
    state["last_optimizer_state"] = None
    _torch().save(state, out)
    return out


def _epoch_checkpoints(save_dir: Path) -> list[Path]:
    found = [(int(m.group(1)), p) for p in save_dir.glob("checkpoint*.pt")
             if (m := re.fullmatch(r"checkpoint(\d+)\.pt", p.name))]
    return [p for _, p in sorted(found)]


def ct2_perplexity(ct2_dir: Path, sources: list[list[str]], targets: list[list[str]]) -> float:
    """Per-token perplexity (EOS included) of reference targets under the model: a figure for the card, on any CPU
    kernel."""
    translator = import_ctranslate2(None).Translator(str(ct2_dir), device="cpu")
    results = translator.score_batch(sources, targets, max_batch_size=64)
    total = sum(sum(r.log_probs) for r in results)
    count = sum(len(r.log_probs) for r in results)
    return math.exp(-total / max(count, 1))


def plot_curve(points: list[tuple[str, dict[str, float]]], out: Path, title: str) -> Path | None:
    """Train/valid loss (and validation BLEU when fairseq logged it) against updates."""
    plt = pyplot()
    inner = [(v["num_updates"], v["loss"]) for k, v in points if k == "train_inner" and "loss" in v]
    valid = [(v["num_updates"], v["loss"]) for k, v in points if k == "valid" and "loss" in v]
    bleu = [(v["num_updates"], v["bleu"]) for k, v in points if k == "valid" and "bleu" in v]
    if not inner and not valid:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    if inner:
        ax.plot(*zip(*inner, strict=True), label="train loss", lw=1)
    if valid:
        ax.plot(*zip(*valid, strict=True), "o-", label="valid loss")
    ax.set_xlabel("updates")
    ax.set_ylabel("loss (base 2)")
    if bleu:
        twin = ax.twinx()
        twin.plot(*zip(*bleu, strict=True), "s--", color="tab:green", label="valid BLEU")
        twin.set_ylabel("BLEU")
    ax.legend(loc="upper right")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


# ---- the run --------------------------------------------------------------------------------------------------


def nmt_training_device(device: str) -> str:
    """``auto``: CUDA when torch sees a GPU (fairseq trains with torch; CTranslate2's view does not count here),
    else the CPU; anything else as given."""
    if device != "auto":
        return device
    return "cuda" if _torch().cuda.is_available() else "cpu"


class _Echo:
    """fairseq's log lines -> short progress lines on our logger, and the points of the training curve."""

    def __init__(self, started: float):
        self.started = started
        self.points: list[tuple[str, dict[str, float]]] = []

    def __call__(self, line: str) -> None:
        parsed = parse_log_line(line)
        if "loaded checkpoint" in line.lower():
            log.info("resuming: %s", line.strip().split("|")[-1].strip())
        if parsed is None:
            return
        kind, values = parsed
        self.points.append(parsed)
        minutes = (time.monotonic() - self.started) / 60
        updates = int(values["num_updates"])
        if kind == "valid":
            extra = f" · valid BLEU {values['bleu']:.1f}" if "bleu" in values else ""
            log.info("update %d · valid loss %.3f (ppl %.1f)%s · %.1f min", updates, values.get("loss", math.nan),
                     values.get("ppl", math.nan), extra, minutes)
        elif kind == "train_inner":
            log.info("update %d · train loss %.3f · %.0f words/s · %.1f min", updates, values.get("loss", math.nan),
                     values.get("wps", math.nan), minutes)


def _check_run_folder(out: Path, definition: dict[str, JsonValue], overwrite: bool) -> bool:
    """True when ``out`` already holds this run, finished (its model card, written last, reads as a complete model
    directory); raises :class:`DifferentRun` when it holds another run, unless ``overwrite`` deletes it."""
    if not out.exists() or not any(out.iterdir()):
        return False
    if overwrite:
        shutil.rmtree(out)
        return False
    definition_file = out / DEFINITION_FILE
    if not definition_file.is_file():
        raise TrainError(f"{out} exists and is not a training run folder (no {DEFINITION_FILE}): pass --overwrite "
                         "to replace it, or choose another --out")
    check_same_run(definition_file.read_text(encoding="utf-8", errors="replace"), definition_file, definition,
                   overwrite=False)
    try:
        ModelDir(out)
    except ModelDirError:
        return False
    return True


def train_model(
    source: Sequence[str],
    target: Sequence[str],
    out: Path,
    recipe: TrainRecipe,
    name: str | None = None,
    valid: tuple[Sequence[str], Sequence[str]] | None = None,
    device: str = "cpu",
    quantization: str | None = None,
    overwrite: bool = False,
    keep_work: bool = False,
    data_description: str = "",
) -> Path:
    """Train (or resume training) a Czech->English model and write a complete model directory to ``out``."""
    out = Path(out)
    if len(source) != len(target):
        raise TrainError(f"{len(source)} source lines but {len(target)} target lines: the bitext is misaligned")
    if valid is not None and len(valid[0]) != len(valid[1]):
        raise TrainError(f"validation: {len(valid[0])} source lines but {len(valid[1])} target lines: misaligned")
    device = nmt_training_device(device)
    definition = _definition(recipe, source, target, valid)
    if _check_run_folder(out, definition, overwrite):
        log.info("%s already holds this run, finished", out)
        return out
    created = not out.exists()
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    (out / DEFINITION_FILE).write_text(definition_text(definition), encoding="utf-8")
    threads = recipe.threads or os.cpu_count() or 1
    log_file = work / "train.log"
    started = time.monotonic()

    data_bin, save_dir = work / "data-bin", work / "checkpoints"
    try:
        counts = _prepare_once(source, target, valid, recipe, work, out / "bpe.codes")
    except TrainError:
        if created:  # nothing worth resuming: leave no folder that a corrected rerun would be refused
            shutil.rmtree(out)
        raise
    _binarise(recipe, work, data_bin, threads, log_file)
    echo = _Echo(started)
    _train_once(recipe, work, data_bin, save_dir, device, threads, echo)
    train_seconds = time.monotonic() - started
    echo.points = [p for line in log_file.read_text(encoding="utf-8").splitlines() if (p := parse_log_line(line))]

    checkpoint, chosen, perplexity = _convert_best(recipe, work, save_dir, out / "fairseq", out, quantization)
    updates, epochs_done, cumulative = _progress(save_dir / "checkpoint_last.pt")
    card = _model_card(name or out.name, recipe, counts, checkpoint, data_description, {
        "updates": str(updates), "epochs": epochs_done, "checkpoint": chosen, "device": device,
        "threads": str(threads), "quantization": quantization or "float32",
        "training": f"{cumulative / 3600:.2f} h of fairseq-train ({device}, {threads} thread(s))"})
    card.metrics["valid_perplexity"] = perplexity
    card.metrics["training_hours"] = round(cumulative / 3600, 4)
    plot_curve(echo.points, out / CURVE_FILE, f"{card.name}: {updates} updates")
    shutil.copy(log_file, out / "train.log")
    write_card(out, card)  # last: a folder whose card reads as a complete model directory is a finished run
    ModelDir(out)
    if not keep_work:
        shutil.rmtree(work)
    log.info("model ready: %s (valid perplexity %.2f, %d updates, %.1f min this call)", out,
             card.metrics["valid_perplexity"], updates, train_seconds / 60)
    return out


def _prepare_once(source: Sequence[str], target: Sequence[str], valid: tuple[Sequence[str], Sequence[str]] | None,
                  recipe: TrainRecipe, work: Path, codes: Path) -> dict[str, int]:
    """The BPE-encoded splits and their pair counts, prepared once (``prepared.json`` makes a resumed run skip it)."""
    prepared = work / "prepared.json"
    if not prepared.is_file():
        prepared.write_text(json.dumps(_prepare(source, target, valid, recipe, work, codes)))
    return json.loads(prepared.read_text())


def _train_once(recipe: TrainRecipe, work: Path, data_bin: Path, save_dir: Path, device: str, threads: int,
                echo: _Echo) -> None:
    """``fairseq-train``, once (``train.done`` makes a resumed run skip it); fairseq resumes from the last
    checkpoint itself, so one cut short while it was written is removed first."""
    trained = work / "train.done"
    if trained.is_file():
        return
    last = save_dir / "checkpoint_last.pt"
    if last.is_file() and not zipfile.is_zipfile(last):  # a kill while fairseq wrote it: fairseq cannot read it
        log.warning("%s is incomplete (the run was killed while saving it): training starts again", last)
        last.unlink()
    log_file = work / "train.log"
    log.info("training (fairseq-train, %s, %d thread(s)); log: %s", device, threads, log_file)
    run_fairseq(fairseq_train_args(recipe, data_bin, save_dir, device), threads, log_file, echo)
    trained.touch()


def _model_card(name: str, recipe: TrainRecipe, counts: dict[str, int], checkpoint: Path, data_description: str,
                training: dict[str, str]) -> ModelCard:
    """The card of a trained model directory: its text chain, both backends' files, what it was trained on and how
    the training went (``training``: updates, epochs, the checkpoint chosen, device, time)."""
    return ModelCard(
        name=name,
        preprocess=PreprocessSpec(normalize_punctuation=True, tokenize="moses", subword="bpe", bpe_codes="bpe.codes"),
        postprocess=PostprocessSpec(subword="bpe", detokenize="moses"),
        ctranslate2="ct2",
        fairseq=FairseqSpec(checkpoint=f"fairseq/{checkpoint.name}", data="fairseq"),
        provenance={"recipe": json.dumps(recipe.model_dump()), "trainer": "translate.train (fairseq)",
                    "data": data_description, "train_pairs": str(counts["train"]),
                    "valid_pairs": str(counts["valid"]), "dropped_pairs": str(counts["dropped"]), **training},
    )


def _binarise(recipe: TrainRecipe, work: Path, data_bin: Path, threads: int, log_file: Path) -> None:
    """``fairseq-preprocess`` of the BPE-encoded splits, once (a marker file makes a resumed run skip it)."""
    if (data_bin / "preprocess.done").is_file():
        return
    shutil.rmtree(data_bin, ignore_errors=True)
    log.info("binarising (fairseq-preprocess)")
    joined = ["--joined-dictionary"] if recipe.share_all_embeddings else []
    run_fairseq(["fairseq_cli.preprocess", "--source-lang", "cs", "--target-lang", "en",
                 "--trainpref", str(work / "train"), "--validpref", str(work / "valid"),
                 "--destdir", str(data_bin), "--workers", str(min(threads, 2)), "--seed", str(recipe.seed),
                 *joined], threads, log_file)
    (data_bin / "preprocess.done").touch()


def _convert_best(recipe: TrainRecipe, work: Path, save_dir: Path, fairseq_dir: Path, out: Path,
                  quantization: str | None) -> tuple[Path, str, float]:
    """The checkpoint to ship (the best one, or the average of the last ones when that wins on the held-out
    pairs), converted to ``out/ct2``: ``(checkpoint, why it was chosen, validation perplexity)``."""
    data_bin = work / "data-bin"
    shutil.rmtree(fairseq_dir, ignore_errors=True)
    fairseq_dir.mkdir()
    for lang in ("cs", "en"):
        shutil.copy(data_bin / f"dict.{lang}.txt", fairseq_dir / f"dict.{lang}.txt")
    valid_src = [s.split() for s in (work / "valid.cs").read_text(encoding="utf-8").splitlines()]
    valid_tgt = [t.split() for t in (work / "valid.en").read_text(encoding="utf-8").splitlines()]

    def convert(checkpoint: Path) -> float:
        fairseq_to_ctranslate2(checkpoint, fairseq_dir, out / "ct2", "cs", "en", quantization)
        return ct2_perplexity(out / "ct2", valid_src, valid_tgt)

    log.info("converting to CTranslate2%s", f" ({quantization})" if quantization else "")
    best = strip_optimizer(save_dir / "checkpoint_best.pt", fairseq_dir / "checkpoint_best.pt")
    checkpoint, chosen, perplexity = best, "checkpoint_best.pt (lowest validation loss)", convert(best)
    epochs = _epoch_checkpoints(save_dir)[-recipe.average_last:] if recipe.average_last else []
    if len(epochs) >= 2:
        # The average is kept only when it beats the best single checkpoint on the held-out pairs (it need not
        # when training was cut short by a budget while the model was still improving fast).
        averaged = average_checkpoints(epochs, fairseq_dir / "checkpoint_averaged.pt")
        averaged_perplexity = convert(averaged)
        label = f"average of {', '.join(p.name for p in epochs)}"
        log.info("valid perplexity: best checkpoint %.3f, %s %.3f", perplexity, label, averaged_perplexity)
        if averaged_perplexity <= perplexity:
            best.unlink()
            checkpoint, chosen, perplexity = averaged, label, averaged_perplexity
        else:
            averaged.unlink()
            chosen += f" (beat the {label}: valid perplexity {perplexity:.3f} < {averaged_perplexity:.3f})"
            convert(best)
    return checkpoint, chosen, perplexity


def _progress(last_checkpoint: Path) -> tuple[int, str, float]:
    """Updates, epochs (``"3 and part of the next"``) and cumulative training seconds of a fairseq run."""
    last_state = _load(last_checkpoint)
    updates = int(last_state.get("optimizer_history", [{}])[-1].get("num_updates", 0))
    iterator = last_state.get("extra_state", {}).get("train_iterator", {})
    epochs_done = int(iterator.get("epoch", 1)) - 1  # the iterator already points at the next epoch
    partial = " and part of the next" if iterator.get("iterations_in_epoch", 0) else ""
    cumulative = float(last_state.get("extra_state", {}).get("previous_training_time", 0.0))
    return updates, f"{epochs_done}{partial}", cumulative


def _prepare(source: Sequence[str], target: Sequence[str], valid: tuple[Sequence[str], Sequence[str]] | None,
             recipe: TrainRecipe, work: Path, codes: Path) -> dict[str, int]:
    """Tokenise, split, learn and apply BPE; write work/{train,valid}.{cs,en}. Returns the pair counts."""

    total = len(source) + len(target) + (len(valid[0]) + len(valid[1]) if valid else 0)
    with tqdm(total=total, desc="Moses tokenisation", unit=" lines", disable=total < 20000 or None,
              file=sys.stderr) as bar:
        src_tok, tgt_tok = moses_lines(source, "cs", bar.update), moses_lines(target, "en", bar.update)
        valid_tok = None
        if valid is not None:
            valid_tok = moses_lines(valid[0], "cs", bar.update), moses_lines(valid[1], "en", bar.update)
    keep = [i for i, (s, t) in enumerate(zip(src_tok, tgt_tok, strict=True)) if s.strip() and t.strip()]
    if valid_tok is None:
        order = list(keep)
        random.Random(recipe.seed).shuffle(order)
        n_valid = max(1, int(len(order) * recipe.valid_fraction))
        if recipe.valid_max:
            n_valid = min(n_valid, recipe.valid_max)
        valid_idx, train_idx = sorted(order[:n_valid]), sorted(order[n_valid:])
        train_pairs = [(src_tok[i], tgt_tok[i]) for i in train_idx]
        valid_pairs = [(src_tok[i], tgt_tok[i]) for i in valid_idx]
    else:
        train_pairs = [(src_tok[i], tgt_tok[i]) for i in keep]
        valid_pairs = [(s, t) for s, t in zip(*valid_tok, strict=True) if s.strip() and t.strip()]
    if not train_pairs:
        raise TrainError(f"the training split is empty ({len(source)} input pairs, {len(keep)} with both sides "
                         "non-empty); give more pairs")
    if not valid_pairs:
        raise TrainError("the validation split is empty (no pair with both sides non-empty); give a non-empty "
                         "--valid-cs/--valid-en or more pairs")
    log.info("learning %d BPE merges on %d training pairs (subword-nmt)", recipe.bpe_merges, len(train_pairs))
    with codes.open("w", encoding="utf-8") as handle:
        learn_bpe([s for s, _ in train_pairs] + [t for _, t in train_pairs], handle, recipe.bpe_merges,
                  min_frequency=2)
    dropped = len(source) - len(train_pairs) - (len(valid_pairs) if valid is None else 0)
    for split, pairs in (("train", train_pairs), ("valid", valid_pairs)):
        src_bpe = apply_bpe(codes, [s for s, _ in pairs])
        tgt_bpe = apply_bpe(codes, [t for _, t in pairs])
        fits = [(s, t) for s, t in zip(src_bpe, tgt_bpe, strict=True)
                if len(s.split()) <= recipe.max_len and len(t.split()) <= recipe.max_len]
        if split == "train":
            dropped += len(src_bpe) - len(fits)
            n_train = len(fits)
        else:
            n_valid = len(fits)
        (work / f"{split}.cs").write_text("".join(s + "\n" for s, _ in fits), encoding="utf-8")
        (work / f"{split}.en").write_text("".join(t + "\n" for _, t in fits), encoding="utf-8")
    if not n_train or not n_valid:
        raise TrainError(f"no pair of the {'training' if not n_train else 'validation'} split is within "
                         f"max_len={recipe.max_len} subwords; raise max_len or give shorter pairs")
    return {"train": n_train, "valid": n_valid, "dropped": dropped}


# ---- command line ---------------------------------------------------------------------------------------------

