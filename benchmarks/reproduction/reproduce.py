"""A reproducible mini ParaNMT: a real Czech→English model back-translates a real bitext, and the paper's claims
are tested on the result (ParaNMT-50M §3 Tables 1/3, §5.4 Table 5, §5.5 Table 6, and STS against baselines).

Steps (each writes ``<out>/steps/<step>.json``; a rerun skips finished steps, and inside the training steps every
finished run, so a killed reproduction loses at most the run it was in):

1. ``corpus`` — ``paranmt run`` over every ``*.cs``/``*.en`` pair of ``--bitext`` at beam 12
   (CTranslate2 int8 on the CPU), with the paper's selection (top two paraphrase-score deciles, both sides
   ≤ 30 tokens) and ``select.exclude_sentences`` set to every STS, STS-B and SICK file of ``--eval-data``;
2. ``throughput`` — back-translation sentences/s on a seeded 500-sentence sample of the same Czech side:
   CTranslate2 int8 and float32 and fairseq, same beam, same batching, same run;
3. ``corpus_stats`` — per source: pairs, copy rate (MT equal to the reference after normalisation), mean trigram
   overlap, paraphrase and translation score; Table 1 and Table 3
   (``pipeline.analysis.corpus_report``) and 20 random pairs per paraphrase-score range;
4. ``select_lr`` — each model's Adam learning rate, on STS2017 only (M = 1, 5 epochs): the paper's 1e-3 or 1e-2;
5. ``table5`` — the pairs the pipeline ranked (past the selection's rules: no evaluation overlap, no copy) ranked by
   each criterion into 10 folds; WORD and TRIGRAM trained one epoch on the same number of
   pairs from each fold; Pearson × 100 on STS2017 and the mean over STS 2012–2015;
6. ``table6`` — M = 1, 20, 40 (MAX negatives) on the pipeline's ``train/``, WORD and TRIGRAM, 5 epochs, 3 seeds;
   with the ``positive_nearer`` statistic of the last log window;
7. ``compare`` — STS 2012–2015 (per-year mean Pearson, pooled Spearman), STS-B test and STS2017 for GloVe
   average, SIF-GloVe (enwiki p(w), the project's ``evaluate --sif``), WORD trained on Multi30k caption pairs (the
   learning check's setting) and WORD, TRIGRAM, WORD+TRIGRAM trained on the back-translated ``train/`` with the M
   that Table 6 selects on STS2017 and the learning rate of step 4 — no test year is used for any choice;
8. ``docs`` — ``--docs`` (markdown tables) and PNGs beside it in ``<docs stem>/``.

``--quick`` runs every step on the first 20 pairs of each source with small settings (about a minute): the suite
runs it so the command cannot rot. Training runs go two at a time (one thread each) on a 2-core machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import functools
import json
import logging
import math
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from benchmarks.paths import REPO, SHARED
from benchmarks.reproduction.caption_pairs import build_caption_pairs
from benchmarks.reproduction.reproduce_docs import MODEL_LABELS, TEST_YEARS, write_docs
from benchmarks.result import argument_parser, write_json
from benchmarks.timing import timed
from benchmarks.translate.translate_bench import Case, run_case
from configs.schema import TrainConfig
from filters.folds import assign_folds, pair_keys
from filters.rules import CRITERIA, MaxTokens, NotACopy
from paranmt.core import pair_schema as S
from paranmt.core import run_definition as run_def
from paranmt.core.text import CachedTokenizer
from pipeline.analysis.corpus_report import build_report
from train_embeddings.evaluation import sts
from train_embeddings.models.model_io import load_model
from train_embeddings.training.trainer import CHECKPOINT, train

log = logging.getLogger("reproduce")

EVAL_PATTERNS = ("sts/STS1*/STS.input.*.txt", "sts/STSB/sts-*.csv", "sick/*.tsv")
SCORE_RANGES = ((-0.1, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.0))  # Table 3's five ranges


@dataclasses.dataclass(frozen=True)
class Scale:
    """How much of everything to run. ``full`` is the default (≈2–3 h on 2 cores); ``quick`` is the smoke test."""

    per_source: int | None = None  # first N pairs of each source (None: all)
    throughput_sentences: int = 500
    folds: int = 10
    table5_models: tuple[str, ...] = ("word", "trigram")
    table5_seeds: tuple[int, ...] = (1, 2)
    table5_epochs: int = 1
    table6_megabatches: tuple[int, ...] = (1, 20, 40)
    table6_models: tuple[str, ...] = ("word", "trigram")
    table6_seeds: tuple[int, ...] = (1, 2, 3)
    table6_epochs: int = 5
    compare_models: tuple[str, ...] = ("word", "trigram", "word,trigram")
    lrs: tuple[float, ...] = (1e-3, 1e-2)  # the paper's Adam rate, and one for a corpus of ~10k pairs
    caption_images: int = 29_000
    report_parse: int = 2000
    workers: int = 2


FULL = Scale()
QUICK = Scale(per_source=20, throughput_sentences=4, folds=2, table5_models=("word",), table5_seeds=(1,),
              table6_megabatches=(1, 2), table6_models=("word",), table6_seeds=(1,), table6_epochs=1,
              compare_models=("word",), caption_images=200, report_parse=50)


class Steps:
    """``<out>/steps/<name>.json``: a finished step's result; present means done (written atomically).

    ``<out>/definition.json`` holds the arguments that define the run (model, bitext, evaluation data, scale): the
    project's rule for run folders (:mod:`paranmt.core.run_definition`) applies — the same run resumes, a different
    one is refused unless ``overwrite`` (which removes the folder first)."""

    def __init__(self, out: Path, definition: dict[str, Any], overwrite: bool = False) -> None:
        self.dir = out / "steps"
        marker = out / run_def.DEFINITION_FILE
        if marker.is_file():
            try:
                other = run_def.check_same_run(marker.read_text(encoding="utf-8", errors="replace"), marker,
                                               definition, overwrite=overwrite)
            except run_def.DifferentRun as error:
                raise SystemExit(f"error: {error}") from None
            if other:
                shutil.rmtree(out)
        self.dir.mkdir(parents=True, exist_ok=True)
        marker.write_text(run_def.definition_text(definition), encoding="utf-8")

    def run(self, name: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        path = self.dir / f"{name}.json"
        if path.is_file():
            print(f"[{name}] done earlier: {path}", flush=True)
            return json.loads(path.read_text(encoding="utf-8"))
        print(f"[{name}] running", flush=True)
        with timed() as seconds:
            result = compute()
        result["seconds"] = round(seconds.total, 1)
        write_json(path, result)
        print(f"[{name}] finished in {result['seconds']:.0f} s", flush=True)
        return result


def bitext_sources(bitext: Path) -> list[str]:
    """Names of the line-aligned pairs ``<name>.cs`` / ``<name>.en`` in ``bitext``, sorted."""
    names = sorted(p.stem for p in bitext.glob("*.cs") if p.with_suffix(".en").is_file())
    if not names:
        raise SystemExit(f"error: {bitext} has no <name>.cs / <name>.en pair files")
    return names


def prepare_input(bitext: Path, out: Path, per_source: int | None) -> list[tuple[Path, Path]]:
    """The pair files to translate: the bitext itself, or its first ``per_source`` lines per source."""
    files = [(bitext / f"{n}.cs", bitext / f"{n}.en") for n in bitext_sources(bitext)]
    if per_source is None:
        return files
    target = out / "input"
    target.mkdir(parents=True, exist_ok=True)
    cut = []
    for cs, en in files:
        pair = []
        for path in (cs, en):
            lines = path.read_text(encoding="utf-8").splitlines()[:per_source]
            (target / path.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
            pair.append(target / path.name)
        cut.append((pair[0], pair[1]))
    return cut


def evaluation_files(eval_data: Path) -> list[str]:
    return [str(eval_data / pattern) for pattern in EVAL_PATTERNS]


def build_corpus(files: Sequence[tuple[Path, Path]], model: Path, eval_data: Path, out: Path) -> dict[str, Any]:
    """Run the pipeline as a user would (a subprocess, its progress and table on the console and in a log)."""
    corpus = out / "corpus"
    command = [sys.executable, "-m", "paranmt", "run", "--out", str(corpus), "--model", str(model),
               "--beam", "12", "--backend", "ctranslate2", "--compute-type", "int8", "--device", "cpu",
               "--cache-dir", str(out / "translation-cache"), "--runner", "FnApiRunner",
               "--set", f"select.exclude_sentences={json.dumps(evaluation_files(eval_data))}"]
    for cs, en in files:
        command += ["--cs", str(cs), "--en", str(en)]
    if corpus.exists() and not (corpus / "_SUCCESS").exists():
        shutil.rmtree(corpus)  # a killed run: its translations are in the cache, the rest is redone
    (out / "logs").mkdir(exist_ok=True)
    started = time.perf_counter()
    with (out / "logs" / "corpus.log").open("w", encoding="utf-8") as logfile:
        process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdout is not None
        for line in process.stdout:
            logfile.write(line)
            if not line.startswith(("WARNING", "INFO")):
                print("  " + line, end="", flush=True)
        code = process.wait()
    if code != 0:
        raise SystemExit(f"error: the pipeline failed (exit {code}); see {out / 'logs' / 'corpus.log'}")
    summary = json.loads((corpus / "summary.json").read_text(encoding="utf-8"))
    wall = time.perf_counter() - started
    hits = summary["metrics"].get("translation_cache_hit_rows", 0)
    translated = summary["metrics"].get("translation_cache_miss_rows", 0)
    return {"command": " ".join(command), "wall_seconds": round(wall, 1), "rows_translated_this_run": translated,
            "rows_from_cache": hits, "pairs_per_second": round(summary["read"] / wall, 1),
            "summary": {k: summary[k] for k in ("read", "pairs", "train", "rejected", "deadletter", "stages",
                                                "rejected_by_reason", "deadletter_by_reason", "pairs_by_decision",
                                                "identity", "decontamination", "nmt_model_id")}}


def throughput(files: Sequence[tuple[Path, Path]], model: Path, n: int, seed: int = 0) -> dict[str, Any]:
    """CTranslate2 int8 / float32 and fairseq at beam 12 on one seeded sample (same batching, same run)."""

    czech = [line for cs, _ in files for line in cs.read_text(encoding="utf-8").splitlines() if line.strip()]
    rng = np.random.default_rng(seed)
    sample = [czech[i] for i in sorted(rng.choice(len(czech), size=min(n, len(czech)), replace=False))]
    threads = os.cpu_count() or 1
    cases = [Case("ctranslate2", "int8", threads, "cpu"), Case("ctranslate2", "float32", threads, "cpu"),
             Case("fairseq", "float32", threads, "cpu")]
    hypotheses = {}
    for case in cases:
        hypotheses[case.backend + case.compute_type] = run_case(case, model, sample, 12, 256, 4096, repeats=1)
        print(f"  {case.backend} {case.compute_type}: {case.sentences_per_second:.1f} sentences/s", flush=True)
    base = next(c for c in cases if c.backend == "fairseq").sentences_per_second
    reference = hypotheses["fairseqfloat32"]
    rows = []
    for case in cases:
        same = sum(a == b for a, b in zip(hypotheses[case.backend + case.compute_type], reference, strict=True))
        rows.append({**dataclasses.asdict(case), "speedup_vs_fairseq": round(case.sentences_per_second / base, 2),
                     "top1_equal_to_fairseq": round(same / len(sample), 3)})
    return {"sentences": len(sample), "beam": 12, "threads": threads, "cases": rows}


def read_pairs_table(corpus: Path) -> pa.Table:
    return pq.read_table(corpus / "pairs")


def copy_mask(table: pa.Table) -> np.ndarray:
    """MT equal to the English reference after normalisation (Moses tokens, lower-cased): a copy."""
    return ~NotACopy().check(table)


def copies_under_the_papers_rule(table: pa.Table, seed: int = 1234) -> dict[str, int]:
    """What ``select.drop_copies`` prevents: the paper's rule (top two paraphrase-score deciles of every scored
    pair without an evaluation overlap, both sides <= 30 tokens) applied with copies left in, and the copies it
    would put into train/."""
    reason = table.column(S.REASON).cast(pa.string())
    excluded = pa.array([S.Reason.EVAL_OVERLAP.value, S.Reason.NO_KNOWN_WORDS.value])
    scored = pc.and_(pc.is_valid(table.column(S.PARAPHRASE_SCORE)), pc.invert(pc.is_in(reason, excluded)))
    candidates = table.filter(pc.fill_null(scored, False))
    fold = assign_folds(candidates.column(S.PARAPHRASE_SCORE).to_numpy(zero_copy_only=False),
                        pair_keys(candidates), 10, seed)
    selected = (fold >= 9) & MaxTokens(30).check(candidates)
    return {"selected": int(selected.sum()), "copies": int((selected & copy_mask(candidates)).sum())}


def per_source_stats(table: pa.Table) -> list[dict[str, Any]]:
    copies = copy_mask(table)
    sources = np.asarray(table.column(S.SOURCE).to_pylist(), dtype=object)
    columns = {c: np.asarray(pc.fill_null(table.column(c), math.nan).to_numpy(zero_copy_only=False), float)
               for c in (S.TRIGRAM_OVERLAP, S.PARAPHRASE_SCORE, S.TRANSLATION_SCORE)}
    keep = np.asarray(pc.fill_null(table.column(S.KEEP), False).to_numpy(zero_copy_only=False), dtype=bool)
    rows = []
    for source in [*sorted(set(sources)), None]:
        mask = np.ones(len(sources), bool) if source is None else sources == source
        rows.append({"source": "all" if source is None else Path(str(source)).stem, "pairs": int(mask.sum()),
                     "copy_rate": float(copies[mask].mean()) if mask.any() else math.nan,
                     **{f"mean_{c}": float(np.nanmean(v[mask])) if mask.any() else math.nan
                        for c, v in columns.items()},
                     "in_train": int(keep[mask].sum()), "copies_in_train": int((keep & copies)[mask].sum())})
    return rows


def pairs_per_range(table: pa.Table, per_range: int = 20, seed: int = 0) -> list[dict[str, Any]]:
    scores = np.asarray(pc.fill_null(table.column(S.PARAPHRASE_SCORE), math.nan).to_numpy(zero_copy_only=False))
    rng = np.random.default_rng(seed)
    out = []
    for low, high in SCORE_RANGES:
        index = np.flatnonzero((scores > low) & (scores <= high))
        chosen = np.sort(rng.choice(index, size=min(per_range, len(index)), replace=False)) if len(index) else []
        rows = table.take(pa.array(chosen, pa.int64())).select([S.SOURCE, S.EN, S.MT, S.PARAPHRASE_SCORE,
                                                                  S.TRIGRAM_OVERLAP]).to_pylist()
        out.append({"range": f"({low:g}, {high:g}]", "pairs_in_range": len(index), "sample": rows})
    return out


def corpus_stats(out: Path, parse: int) -> dict[str, Any]:
    table = read_pairs_table(out / "corpus")
    report = build_report(table, out / "report", name="back-translated bitext", max_parse=parse)
    return {"per_source": per_source_stats(table), "without_drop_copies": copies_under_the_papers_rule(table),
            "table1_markdown": report["markdown"]["table1"],
            "table3_markdown": next(iter(report["markdown"]["table3"].values())),
            "plots": [str(out / "report" / f) for f in report["files"]["plots"]],
            "examples": pairs_per_range(table)}


def train_and_evaluate(run_dir: str, config: dict[str, Any]) -> dict[str, Any]:
    """One training run (in a worker process, one thread) and its evaluation, cached as ``result.json``: the
    final model's STS2017 and STS 2012–2015 (per-year mean Pearson) and the last ``positive_nearer``."""
    import torch

    directory = Path(run_dir)
    done = directory / "result.json"
    if done.is_file():
        return json.loads(done.read_text(encoding="utf-8"))
    torch.set_num_threads(1)
    try:  # a folder with this run's checkpoint continues it (the trainer's rule for run folders)
        result = train(TrainConfig(**config), directory, evaluate_fn=None, progress=False)
    except Exception:
        if not (directory / CHECKPOINT).is_file():
            raise
        # a checkpoint torn by a kill: start the run again
        result = train(TrainConfig(**config), directory, evaluate_fn=None, progress=False, overwrite=True)
    model = load_model(result.model_dir)

    def encode(sentences: list[str]) -> np.ndarray:  # the model's own Moses settings, one cache for every run
        return model.encode_tokens(moses_tokenizer()(sentences))

    report = sts.evaluate_all(encode, data=benchmarks())
    history = json.loads((directory / "metrics.json").read_text(encoding="utf-8"))
    last = history["log"][-1] if history.get("log") else {}
    out = {"config": config, "steps": result.steps, "train_seconds": result.timing.get("wall_s"),
           **evaluation_row(report), "positive_nearer": last.get("positive_nearer"),
           "positive_cos": last.get("positive_cos"), "negative_cos": last.get("negative_cos")}
    write_json(done, out)
    (directory / CHECKPOINT).unlink(missing_ok=True)  # the run is done: keep the model, not the optimiser state
    return out


@functools.cache
def benchmarks() -> Any:
    """STS 2012–2015 and STS-B (with STS2017), loaded once per process."""

    return sts.load_benchmarks(years=TEST_YEARS)


@functools.cache
def moses_tokenizer() -> Any:
    """The trainer's tokeniser (Moses, English, punctuation normalised; lower-cased at lookup) with one sentence
    cache per process, so the many runs of a step tokenise the evaluation sentences once."""

    return CachedTokenizer()


def evaluation_row(report: Any) -> dict[str, Any]:
    """The figures every table uses (×100): per-year mean Pearson 2012–2015 and their mean, pooled Spearman per
    year and mean, STS-B test, STS2017."""
    years = {str(y.year): 100 * y.mean_pearson for y in report.years}
    pooled = {str(y.year): 100 * y.pooled_spearman for y in report.years}
    return {"years_pearson": years, "mean_pearson": 100 * report.mean_pearson, "years_pooled_spearman": pooled,
            "mean_pooled_spearman": 100 * report.mean_pooled_spearman,
            "stsb_test": 100 * report.stsb["stsb_test"].pearson, "sts2017": 100 * report.stsb["sts2017"].pearson}


def train_config(data: Path, model: str, seed: int, epochs: int, megabatch: int) -> dict[str, Any]:
    """The paper's §5.2 settings (Adam 1e-3, batch 100, δ 0.4, MAX negatives); words from GloVe 6B 50d."""
    return {"data": str(data), "model": model, "word_vectors": "kumo", "seed": seed, "epochs": epochs,
            "megabatch": megabatch, "threads": 1, "evals_per_epoch": 1, "device": "cpu"}


def run_all(jobs: Sequence[tuple[Path, dict[str, Any]]], workers: int) -> list[dict[str, Any]]:
    """Train every job, ``workers`` at a time; finished ones are read back. Results in job order."""
    if workers <= 1:
        return [train_and_evaluate(str(d), c) for d, c in jobs]
    # Forked workers inherit the evaluation sentences loaded and tokenised here once, instead of each worker
    # tokenising them again for its first evaluation; fork only on Linux (unsafe on macOS, absent on Windows).
    moses_tokenizer()(benchmarks().unique_sentences())
    context = multiprocessing.get_context("fork") if sys.platform == "linux" else None
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [pool.submit(train_and_evaluate, str(d), c) for d, c in jobs]
        results = []
        for i, future in enumerate(futures, 1):
            results.append(future.result())
            print(f"  run {i}/{len(jobs)}: {jobs[i - 1][0].name} STS2017 {results[-1]['sts2017']:.1f}", flush=True)
        return results


def select_lr(out: Path, scale: Scale) -> dict[str, Any]:
    """Each model's Adam learning rate, chosen on STS2017 only: M = 1, the pipeline's train/, ``table6_epochs``
    epochs, seed 1, from ``scale.lrs`` (the paper's 1e-3 is tuned for 5M pairs — ~250k updates; a corpus of ~10k
    pairs gives a few hundred)."""
    models = list(dict.fromkeys((*scale.table5_models, *scale.table6_models, *scale.compare_models)))
    jobs = [(out / "runs" / "select_lr" / f"{model.replace(',', '+')}-lr{lr:g}",
             {**train_config(out / "corpus" / "train", model, 1, scale.table6_epochs, 1), "lr": lr})
            for model in models for lr in scale.lrs]
    results = run_all(jobs, scale.workers)
    scores: dict[str, dict[str, float]] = {}
    for (_, config), result in zip(jobs, results, strict=True):
        scores.setdefault(config["model"], {})[f"{config['lr']:g}"] = result["sts2017"]
    return {"sts2017": scores, "lr": {m: float(max(v, key=v.get)) for m, v in scores.items()}}


def fold_data(out: Path, folds: int, seed: int = 1) -> dict[str, Any]:
    """The pairs the pipeline ranked (those with a fold: past the selection's rules, so no evaluation overlap and no
    copy), ranked per criterion into ``folds`` folds; each fold sampled down to the smallest fold's size (seeded)
    and written as Parquet for the trainer."""
    table = read_pairs_table(out / "corpus")
    table = table.filter(pc.greater(pc.fill_null(table.column(S.FOLD), 0), 0))
    table = table.drop_columns([S.KEEP])  # the trainer reads every row of a fold, not the pipeline's selection
    sizes: dict[str, list[int]] = {}
    for criterion in CRITERIA:
        values = np.asarray(pc.fill_null(table.column(criterion), math.nan).to_numpy(zero_copy_only=False))
        fold = assign_folds(values, pair_keys(table), folds, seed)
        per_fold = [np.flatnonzero(fold == f) for f in range(1, folds + 1)]
        n = min(len(rows) for rows in per_fold)
        rng = np.random.default_rng(seed)
        sizes[criterion] = [len(rows) for rows in per_fold]
        for f, rows in enumerate(per_fold, 1):
            chosen = np.sort(rng.choice(rows, size=n, replace=False))
            target = out / "folds" / criterion / f"fold-{f:02d}.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(table.take(pa.array(chosen)), target)
    return {"pairs_ranked": table.num_rows, "fold_sizes": sizes, "pairs_per_fold": min(min(s) for s in sizes.values())}


def table5(out: Path, scale: Scale, lrs: dict[str, float]) -> dict[str, Any]:
    folds = fold_data(out, scale.folds)
    jobs = [(out / "runs" / "table5" / f"{criterion}-f{f:02d}-{model.replace(',', '+')}-s{seed}-lr{lrs[model]:g}",
             {**train_config(out / "folds" / criterion / f"fold-{f:02d}.parquet", model, seed, scale.table5_epochs, 1),
              "lr": lrs[model]})
            for criterion in CRITERIA for f in range(1, scale.folds + 1)
            for model in scale.table5_models for seed in scale.table5_seeds]
    results = run_all(jobs, scale.workers)
    cells: dict[str, dict[str, dict[str, list[float]]]] = {}
    for (directory, config), result in zip(jobs, results, strict=True):
        criterion, fold = directory.name.split("-f")[0], int(directory.name.split("-f")[1][:2])
        cell = cells.setdefault(criterion, {}).setdefault(str(fold), {})
        cell.setdefault(f"{config['model']} sts2017", []).append(result["sts2017"])
        cell.setdefault(f"{config['model']} mean_pearson", []).append(result["mean_pearson"])
    table = {criterion: {fold: {key: statistics.mean(values) for key, values in cell.items()}
                         for fold, cell in per_fold.items()} for criterion, per_fold in cells.items()}
    for per_fold in table.values():
        for cell in per_fold.values():
            cell["avg sts2017"] = statistics.mean(cell[f"{m} sts2017"] for m in scale.table5_models)
            cell["avg mean_pearson"] = statistics.mean(cell[f"{m} mean_pearson"] for m in scale.table5_models)
    best = {criterion: max(per_fold, key=lambda f: per_fold[f]["avg sts2017"]) for criterion, per_fold in table.items()}
    return {"folds": folds, "models": list(scale.table5_models), "seeds": list(scale.table5_seeds),
            "epochs": scale.table5_epochs, "megabatch": 1, "lr": lrs, "table": table, "best_fold": best}


def table6(out: Path, scale: Scale, lrs: dict[str, float]) -> dict[str, Any]:
    data = out / "corpus" / "train"
    jobs = [(out / "runs" / "table6" / f"M{m}-{model.replace(',', '+')}-s{seed}-lr{lrs[model]:g}",
             {**train_config(data, model, seed, scale.table6_epochs, m), "lr": lrs[model]})
            for m in scale.table6_megabatches for model in scale.table6_models for seed in scale.table6_seeds]
    results = run_all(jobs, scale.workers)
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    for (_, config), result in zip(jobs, results, strict=True):
        cell = rows.setdefault(str(config["megabatch"]), {}).setdefault(config["model"], {"runs": []})
        cell["runs"].append(result)
    for per_model in rows.values():
        for cell in per_model.values():
            for key in ("sts2017", "mean_pearson", "positive_nearer"):
                values = [r[key] for r in cell["runs"] if r[key] is not None]
                cell[key] = {"mean": statistics.mean(values) if values else None,
                             "sd": statistics.stdev(values) if len(values) > 1 else 0.0}
    best_m = {model: max(rows, key=lambda m: rows[m][model]["sts2017"]["mean"]) for model in scale.table6_models}
    return {"pairs": sum(pq.read_metadata(p).num_rows for p in sorted(data.glob("*.parquet"))),
            "epochs": scale.table6_epochs, "seeds": list(scale.table6_seeds), "lr": lrs, "table": rows,
            "best_megabatch": best_m}


def caption_pairs(out: Path, images: int) -> Path:
    """Multi30k caption pairs as in the learning check (captions k and k+1 of an image, leaked captions dropped,
    group = image)."""
    directory = out / "captions"
    if not (directory / "done.json").is_file():
        shutil.rmtree(directory, ignore_errors=True)
        info = build_caption_pairs(directory / "data", images, "chain")
        write_json(directory / "done.json", info)
    return directory / "data"


def compare(out: Path, scale: Scale, table6_result: dict[str, Any], lrs: dict[str, float]) -> dict[str, Any]:
    bench = benchmarks()
    rows: dict[str, dict[str, Any]] = {}
    glove = sts.glove_average_encoder()
    rows["GloVe average"] = evaluation_row(sts.evaluate_all(glove, data=bench))
    sif = sts.sif_encoder(bench.unique_sentences(), word_frequencies=SHARED / "data/wordfreq/enwiki_vocab_min200.txt")
    rows["SIF-GloVe"] = evaluation_row(sts.evaluate_all(sif, data=bench))
    captions = caption_pairs(out, scale.caption_images)
    word_m = int(table6_result["best_megabatch"].get("word", 1))
    jobs = [(out / "runs" / "compare" / "captions-word",
             {**train_config(captions, "word", 1, 5, 1), "group_column": "image"})]
    for model in scale.compare_models:
        m = int(table6_result["best_megabatch"].get(model, word_m))
        jobs.append((out / "runs" / "compare" / f"bt-{model.replace(',', '+')}-M{m}-lr{lrs[model]:g}",
                     {**train_config(out / "corpus" / "train", model, 1, scale.table6_epochs, m), "lr": lrs[model]}))
    results = run_all(jobs, scale.workers)
    rows["WORD, Multi30k caption pairs (M=1)"] = results[0]
    for (_, config), result in zip(jobs[1:], results[1:], strict=True):
        rows[f"{MODEL_LABELS[config['model']]}, back-translated train/ (M={config['megabatch']}, "
             f"lr {config['lr']:g})"] = result
    return {"rows": rows, "captions": json.loads((out / "captions" / "done.json").read_text(encoding="utf-8"))}


def build_parser() -> argparse.ArgumentParser:
    p = argument_parser(__file__, __doc__)
    p.add_argument("--model", type=Path, default=SHARED / "models" / "small-cs-en", help="model directory")
    p.add_argument("--bitext", type=Path, default=SHARED / "data" / "bitext", help="folder of NAME.cs/NAME.en")
    p.add_argument("--eval-data", type=Path, default=SHARED / "data",
                   help="folder with sts/ and sick/ (excluded from training; STS is the evaluation)")
    p.add_argument("--out", type=Path, required=True, help="run folder (a rerun skips finished steps)")
    p.add_argument("--docs", type=Path, help="write the markdown report here (PNGs in a folder beside it)")
    p.add_argument("--quick", action="store_true", help="20 pairs per source and small settings (about a minute)")
    p.add_argument("--overwrite", action="store_true", help="replace a different reproduction already in --out")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", force=True)
    for path, what in ((args.model / "model_card.yaml", "--model"), (args.bitext, "--bitext"),
                       (args.eval_data / "sts", "--eval-data")):
        if not path.exists():
            print(f"error: {what}: {path} does not exist", file=sys.stderr)
            return 2
    scale = QUICK if args.quick else FULL
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    definition = run_def.run_definition(model=str(args.model.resolve()), bitext=str(args.bitext.resolve()),
                                eval_data=str(args.eval_data.resolve()), scale=dataclasses.asdict(scale))
    steps = Steps(out, json.loads(json.dumps(definition)), args.overwrite)
    files = prepare_input(args.bitext, out, scale.per_source)
    results = {
        "corpus": steps.run("corpus", lambda: build_corpus(files, args.model, args.eval_data, out)),
        "throughput": steps.run("throughput", lambda: throughput(files, args.model, scale.throughput_sentences)),
        "corpus_stats": steps.run("corpus_stats", lambda: corpus_stats(out, scale.report_parse)),
        "select_lr": steps.run("select_lr", lambda: select_lr(out, scale)),
    }
    lrs = results["select_lr"]["lr"]
    results["table5"] = steps.run("table5", lambda: table5(out, scale, lrs))
    results["table6"] = steps.run("table6", lambda: table6(out, scale, lrs))
    results["compare"] = steps.run("compare", lambda: compare(out, scale, results["table6"], lrs))
    if args.docs:
        written = write_docs(results, args.docs, args)
        print(f"report: {written['docs']} ({len(written['figures'])} figures)")
    write_json(out / "results.json", results)
    print(f"results: {out / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
