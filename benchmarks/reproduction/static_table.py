"""What the corpus adds to a distilled teacher: the ``static`` encoder (all-MiniLM-L6-v2's model2vec
distillation, then paraphrase training) row by row, beside TRIGRAM, SP and all-MiniLM-L6-v2.

Training sets (from ``benchmarks.reproduction.corpora``'s bitext corpus; both sides ≤ 30 tokens, no evaluation sentence,
no copy): ``all`` — every ranked pair (53,517); ``train`` — the pipeline's ``train/`` (the paper's top-two-decile
selection); ``shuffled`` — ``all`` with the back-translations permuted (not paraphrases: the control); ``lo`` — the
LibreOffice corpus's ranked pairs, ``all+lo`` both; ``all-<n>`` — nested seeded samples for the learning curve.

Every run: the paper's margin loss (δ 0.4, MAX negatives, batch 100), M = 20 unless the row says otherwise, Adam, 5
epochs, one thread, the final model (no test year is looked at: every choice — the learning rate of each model, the
teacher-loss weight, the best combination — is made on STS2017 alone, and rows say which). Phases, most important first
(``teacher`` computes the teacher vectors the teacher-loss rows read): ``a`` distillation alone, learning-rate sweep on
all pairs, seeds, train/, shuffled control, teacher loss and teacher-loss-alone control; ``b`` PCA size, vocabulary
extension, M, pull; ``c`` combinations with TRIGRAM and SP, the WORD, TRIGRAM and SP baselines; ``e`` the teacher-loss
configuration's third seed, faster learning rate, M = 1, 10 epochs, its checkpoint best on STS2017 and train/; ``f`` the
teacher loss at faster rates (seeds); ``d`` the learning curves of the main configuration and of the best static
configuration (mean STS2017 over its seeds); ``g`` that configuration's second seed and its teacher-loss-alone control;
``lo`` the LibreOffice pairs added (once that corpus is built); ``frontier`` ``benchmarks.reproduction.frontier`` over
the distillation, the best static row, WORD, TRIGRAM, SP and STATIC,TRIGRAM (retrained here when only their numbers are:
the runs are deterministic): quality and encode sentences/s on one pinned thread beside all-MiniLM-L6-v2 in the same run
(``benchmarks.reproduction.encoder_timing``), into ``benchmarks/results/frontier.json`` and the page's ``frontier``
section; ``speed`` the table's speed rows from that JSON, and sizes on disk. Results are written to ``--json`` after
every run; a rerun skips the finished ones. ``--docs`` rewrites the ``static`` section of the page.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.paths import REPO, shown
from benchmarks.reproduction.frontier import MINILM, evaluate, sts_summary
from benchmarks.reproduction.frontier import main as frontier_main
from benchmarks.reproduction.learning_curve import finished, one_thread_pool, ranked_pairs
from benchmarks.reproduction.static_report import SEED, write_section
from benchmarks.result import argument_parser, write_result
from configs.schema import TrainConfig
from paranmt.core.hf_imports import minilm_directory
from train_embeddings.evaluation import sts
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.model_io import load_model, save_model
from train_embeddings.models.spec import ModelSpec
from train_embeddings.static.teacher import STATIC, distill_teacher
from train_embeddings.static.teacher_targets import teacher_targets
from train_embeddings.training.data import PairSource, source_sentences
from train_embeddings.training.trainer import train

# benchmarks.reproduction.corpora's default --out (not imported: it pulls the translators)
CORPORA = REPO / "runs" / "corpora"
FRONTIER_JSON = REPO / "benchmarks" / "results" / "frontier.json"
YEARS = (2012, 2013, 2014, 2015)
COLUMNS = ["id", "en", "mt", "en_tokens", "mt_tokens", "paraphrase_score"]
CURVE = (2000, 5000, 11000, 30000)
# A configuration's settings, carried to its learning curve, seeds and controls.
CURVE_KEYS = ("lr", "static_teacher_loss", "static_pca_dims", "static_extend_vocab", "static_pull", "megabatch",
              "epochs", "select")
LR_SWEEP = (3e-4, 1e-3, 3e-3, 1e-2)
# benchmarks.reproduction.reproduce / learning_curve's
BASE_LR = {"word": 1e-2, "trigram": 1e-3, "sp": 1e-3, "trigram,sp": 1e-3}
LABEL = {"static": "STATIC", "word": "WORD", "trigram": "TRIGRAM", "sp": "SP", "trigram,sp": "TRIGRAM,SP",
         "static,trigram": "STATIC,TRIGRAM", "static,sp": "STATIC,SP"}


def corpus_dir(corpora: Path, name: str) -> Path:
    """``benchmarks.reproduction.corpora``'s pipeline output for corpus ``name``."""
    return corpora / name / "corpus"


def derive_sets(data: Path, seed: int = 1) -> dict[str, int]:
    """From ``all.parquet``: the shuffled control and the learning curve's nested samples (seeded, so any machine
    derives the same files)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    bitext = pq.read_table(data / "all.parquet")
    rng = np.random.default_rng(seed)
    permutation = pa.array(rng.permutation(bitext.num_rows))
    shuffled = bitext.set_column(2, "mt", bitext["mt"].take(permutation)).set_column(
        4, "mt_tokens", bitext["mt_tokens"].take(permutation))
    pq.write_table(shuffled, data / "shuffled.parquet")
    sizes = {"shuffled": shuffled.num_rows}
    order = rng.permutation(bitext.num_rows)
    for n in CURVE:
        pq.write_table(bitext.take(pa.array(np.sort(order[:n]))), data / f"all-{n}.parquet")
        sizes[f"all-{n}"] = n
    return sizes


def prepare(corpora: Path, data: Path, seed: int = 1) -> dict[str, int]:
    """Write the training sets into ``data`` (see the module docstring); returns their sizes."""
    import pyarrow.parquet as pq

    sets_file = data / "sets.json"
    sizes = json.loads(sets_file.read_text(encoding="utf-8")) if sets_file.is_file() else {}
    software = corpus_dir(corpora, "software")
    if "all" in sizes and ("lo" in sizes or not (software / "_SUCCESS").exists()):
        return sizes
    data.mkdir(parents=True, exist_ok=True)
    bitext = ranked_pairs(corpus_dir(corpora, "bitext")).select(COLUMNS)
    sizes["all"] = bitext.num_rows
    pq.write_table(bitext, data / "all.parquet")
    train = pq.read_table(corpus_dir(corpora, "bitext") / "train").select(COLUMNS)
    pq.write_table(train, data / "train.parquet")
    sizes["train"] = train.num_rows
    sizes.update(derive_sets(data, seed))
    if (software / "_SUCCESS").exists():  # the LibreOffice sets join when that corpus is built
        lo = ranked_pairs(software).select(COLUMNS)
        pq.write_table(lo, data / "lo.parquet")
        (data / "all+lo").mkdir(exist_ok=True)
        pq.write_table(bitext, data / "all+lo" / "a.parquet")
        pq.write_table(lo, data / "all+lo" / "b.parquet")
        sizes["lo"], sizes["all+lo"] = lo.num_rows, bitext.num_rows + lo.num_rows
    sets_file.write_text(json.dumps(sizes, indent=1), encoding="utf-8")
    return sizes


def data_path(data: Path, name: str) -> Path:
    return data / name if (data / name).is_dir() else data / f"{name}.parquet"


_CACHE: dict[str, Any] = {}


def _benchmarks() -> Any:

    if "bench" not in _CACHE:
        _CACHE["bench"] = sts.load_benchmarks(years=YEARS)
    return _CACHE["bench"]


def scores(label: str, encode: Any) -> dict[str, Any]:
    """STS 2012–2015 (mean of per-year mean Pearson), STS-B test, STS2017 —
    ``benchmarks.reproduction.frontier.evaluate``."""

    return evaluate([(label, encode, "static")], _benchmarks())[label]


def distilled_model(pca_dims: int | None = 256, vocabulary: Sequence[str] | None = None) -> Any:
    """The distillation alone, as a paranmt model (no training)."""
    import torch

    vocab = distill_teacher(None, pca_dims, vocabulary)
    assert vocab.initial is not None
    spec = ModelSpec(components=[STATIC], static_dim=int(vocab.initial.shape[1]), n_static_tokens=len(vocab))
    with torch.no_grad():
        encoder = build_encoder(spec)
        encoder.parts[STATIC].initialise(vocab.initial)
    return EmbeddingModel(spec, encoder, None, None, None, vocab)


def run_job(job: dict[str, Any], data: Path, runs: Path) -> dict[str, Any]:
    """Train one row (one thread) and evaluate its final model; ``job["train"]`` False: the distillation alone."""
    import torch

    torch.set_num_threads(1)
    started = time.perf_counter()
    out = runs / job["name"]
    if not job.get("train", True):
        model = distilled_model(job.get("static_pca_dims", 256))
        save_model(model, out / "model")
        trained = time.perf_counter()
        return {**job, "train_s": 0.0, "eval": scores(job["name"], model.encode),
                "eval_s": time.perf_counter() - trained, "model_dir": shown(out / "model")}
    on_dev = job.get("select") == "dev"  # keep the checkpoint best on STS2017 (4 per epoch), else the final model
    config = {"data": str(data_path(data, job["data"])), "model": job["model"], "seed": job.get("seed", 1),
              "epochs": job.get("epochs", 5), "megabatch": job.get("megabatch", 20), "lr": job["lr"], "threads": 1,
              "evals_per_epoch": 4 if on_dev else 0, "device": "cpu",
              **{k: job[k] for k in ("static_pca_dims", "static_extend_vocab", "static_teacher_loss", "static_pull",
                                     "paraphrase_weight", "sp_vocab_size", "word_vectors") if k in job}}
    result = train(TrainConfig(**config), out, evaluate_fn="default" if on_dev else None, progress=False)
    trained = time.perf_counter()
    kept = Path(result.best_dir if on_dev and result.best_dir is not None else result.model_dir)
    model = load_model(kept)
    return {**job, "train_s": trained - started, "steps": result.steps, "eval": scores(job["name"], model.encode),
            "eval_s": time.perf_counter() - trained, "model_dir": shown(kept),
            **({"best_step": result.best.get("step")} if on_dev and result.best else {})}


class Results:
    """``--json``: ``{"sets": ..., "rows": {name: row}}``, rewritten atomically after every finished run."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, Any] = (json.loads(path.read_text(encoding="utf-8")) if path.is_file()
                                     else {"rows": {}})
        self.data.setdefault("rows", {})

    @property
    def rows(self) -> dict[str, Any]:
        return self.data["rows"]

    def save(self) -> None:
        self.data = write_result(self.path, {k: v for k, v in self.data.items() if k not in ("command", "machine")},
                                 __file__)


def run_jobs(jobs: list[dict[str, Any]], results: Results, data: Path, runs: Path, workers: int) -> None:
    todo = [j for j in jobs if j["name"] not in results.rows]
    if not todo:
        return
    print(f"[runs] {len(todo)} to run ({len(jobs) - len(todo)} done earlier), {workers} at a time", flush=True)
    with one_thread_pool(workers) as pool:
        futures = {pool.submit(run_job, job, data, runs): job for job in todo}
        for job, row in finished(futures):
            if not isinstance(row, Exception):
                results.rows[job["name"]] = row
                results.save()
                print(f"  {job['name']}: {sts_summary(row['eval'])} (train {row['train_s']:.0f} s)", flush=True)


def teacher_vectors(data: Path, sets: dict[str, int]) -> None:
    """The teacher loss's targets for every sentence of ``all`` (and ``all+lo``), computed once into the cache
    (one thread), so the teacher-loss rows only read them."""
    import torch

    torch.set_num_threads(1)
    for name in ("all", "all+lo"):
        if name in sets:
            source = PairSource(data_path(data, name), text_columns=("en", "mt"))
            targets = teacher_targets(source_sentences(source))
            print(f"  teacher vectors: {len(targets.texts):,} sentences cached ({name})", flush=True)


def _dev(results: Results, name: str) -> float:
    row = results.rows.get(name)
    return row["eval"]["sts2017"] if row else float("-inf")


def best_of(results: Results, names: Sequence[str]) -> str:
    """The row of ``names`` with the best STS2017 (dev) score."""
    return max(names, key=lambda n: _dev(results, n))


def static_job(name: str, data: str = "all", lr: float = 3e-3, **extra: Any) -> dict[str, Any]:
    return {"name": name, "data": data, "model": "static", "lr": lr, **extra}


def phase_a(results: Results, sets: dict[str, int], run: Any) -> None:
    run([{"name": "distilled", "model": "static", "train": False, "data": "-"}])
    sweep = [static_job(f"static-all-lr{lr:g}", lr=lr) for lr in LR_SWEEP]
    run(sweep)
    lr = results.rows[best_of(results, [j["name"] for j in sweep])]["lr"]
    results.data["choices"] = {**results.data.get("choices", {}), "static_lr": lr}
    teacher = [static_job(f"static-all-lr{lr:g}-teacher{w:g}", lr=lr, static_teacher_loss=w) for w in (0.5, 2.0, 8.0)]
    run([*teacher, static_job(f"static-all-lr{lr:g}-s2", lr=lr, seed=2)])  # the teacher loss first: the lift
    w = results.rows[best_of(results, [j["name"] for j in teacher])]["static_teacher_loss"]
    results.data["choices"]["teacher_loss"] = w
    run([static_job(f"static-all-lr{lr:g}-teacheronly", lr=lr, static_teacher_loss=w, paraphrase_weight=0.0),
         static_job(f"static-all-lr{lr:g}-teacher{w:g}-s2", lr=lr, static_teacher_loss=w, seed=2)])
    if "all+lo" in sets:  # more pairs, with the best objective
        run([static_job(f"static-all+lo-lr{lr:g}-teacher{w:g}", "all+lo", lr, static_teacher_loss=w),
             static_job(f"static-shuffled-lr{lr:g}", "shuffled", lr)])
    run([static_job(f"static-train-lr{lr:g}", "train", lr), static_job(f"static-all-lr{lr:g}-s3", lr=lr, seed=3)])


def phase_b(results: Results, sets: dict[str, int], run: Any) -> None:
    lr = results.data["choices"]["static_lr"]
    run([static_job(f"static-all-lr{lr:g}-pca384", lr=lr, static_pca_dims=384),
         static_job(f"static-all-lr{lr:g}-vocab20k", lr=lr, static_extend_vocab=20000),
         static_job(f"static-all-lr{lr:g}-pull1", lr=lr, static_pull=1.0),
         static_job(f"static-all-lr{lr:g}-pca128", lr=lr, static_pca_dims=128)])


def phase_c(results: Results, sets: dict[str, int], run: Any) -> None:
    lr = results.data["choices"]["static_lr"]
    w = results.data["choices"].get("teacher_loss", 0.5)
    jobs = [{"name": f"{m}-all", "data": "all", "model": m, "lr": BASE_LR[m]} for m in ("trigram", "sp")]
    jobs.append({"name": "word-all", "data": "all", "model": "word", "lr": BASE_LR["word"], "word_vectors": "kumo"})
    jobs += [{"name": f"{m}-all", "data": "all", "model": m, "lr": lr} for m in ("static,trigram", "static,sp")]
    jobs += [{"name": "trigram,sp-all", "data": "all", "model": "trigram,sp", "lr": BASE_LR["trigram,sp"]},
             static_job(f"static,trigram-all-teacher{w:g}", lr=lr, model="static,trigram", static_teacher_loss=w)]
    run(jobs)


def phase_lo(results: Results, sets: dict[str, int], run: Any) -> None:
    """More pairs: the LibreOffice corpus added (when ``benchmarks.reproduction.corpora`` has built it), to the main
    configuration, the teacher-loss one and the best static configuration."""
    if "all+lo" not in sets:
        print("  no LibreOffice corpus yet (python -m benchmarks.reproduction.corpora --only software): skipped",
              flush=True)
        return
    lr = results.data["choices"]["static_lr"]
    w = results.data["choices"].get("teacher_loss", 0.5)
    best = results.data["choices"].get("best_static") or best_static(results)
    settings = {k: results.rows[best][k] for k in CURVE_KEYS if k in results.rows[best]}
    run([static_job(f"static-all+lo-lr{lr:g}", "all+lo", lr),
         static_job(f"static-all+lo-lr{lr:g}-teacher{w:g}", "all+lo", lr, static_teacher_loss=w),  # (a) ran one
         static_job(best.replace("static-all-", "static-all+lo-", 1), **{**settings, "data": "all+lo"})])


def best_static(results: Results, local: bool = False) -> str:
    """The best trained static-only configuration on STS2017 (dev; the mean over its seeds) among the full-corpus
    rows (not the controls), named by its first seed's row; ``local``: among the rows whose model is on this machine
    (speed and the frontier time models here)."""
    names = [n for n, r in results.rows.items() if r.get("model") == "static" and r.get("train", True)
             and r["data"] in ("all", "all+lo") and r.get("paraphrase_weight") != 0.0
             and (not local or model_path(r).is_dir())]
    seeds: dict[str, list[str]] = {}
    for name in names:
        seeds.setdefault(SEED.sub("", name), []).append(name)  # one configuration, its seeds
    best = max(seeds, key=lambda config: statistics.mean(_dev(results, n) for n in seeds[config]))
    return best if best in names else seeds[best][0]


def _faster_rates(lr: float) -> tuple[float, ...]:
    """The rates of the sweep above ``lr`` (none when it is the fastest)."""
    return LR_SWEEP[LR_SWEEP.index(lr) + 1:]


def phase_e(results: Results, sets: dict[str, int], run: Any) -> None:
    """Closing the gap: the teacher-loss configuration's third seed, then its learning rate, M, epochs, the
    checkpoint best on STS2017 (the paper's model selection) instead of the final model, and the paper's train/
    selection with the teacher loss (each judged on STS2017 against the configuration)."""
    lr, w = results.data["choices"]["static_lr"], results.data["choices"]["teacher_loss"]
    base = f"static-all-lr{lr:g}-teacher{w:g}"
    run([static_job(f"{base}-s3", lr=lr, static_teacher_loss=w, seed=3),
         *(static_job(f"static-all-lr{rate:g}-teacher{w:g}", lr=rate, static_teacher_loss=w)
           for rate in _faster_rates(lr)[:1]),
         static_job(f"{base}-M1", lr=lr, static_teacher_loss=w, megabatch=1),
         static_job(f"{base}-e10", lr=lr, static_teacher_loss=w, epochs=10),
         static_job(f"{base}-devbest", lr=lr, static_teacher_loss=w, select="dev"),
         static_job(f"static-train-lr{lr:g}-teacher{w:g}", "train", lr, static_teacher_loss=w)])


def phase_f(results: Results, sets: dict[str, int], run: Any) -> None:
    """The teacher loss at faster learning rates (phase e's first try at one matched the configuration on STS2017):
    its seeds 2 and 3, and the next rate of the sweep."""
    lr, w = results.data["choices"]["static_lr"], results.data["choices"]["teacher_loss"]
    faster = _faster_rates(lr)
    run([*(static_job(f"static-all-lr{rate:g}-teacher{w:g}-s{seed}", lr=rate, static_teacher_loss=w, seed=seed)
           for rate in faster[:1] for seed in (2, 3)),
         *(static_job(f"static-all-lr{rate:g}-teacher{w:g}", lr=rate, static_teacher_loss=w) for rate in faster[1:2])])
    results.data["choices"]["best_static"] = best_static(results)


def phase_g(results: Results, sets: dict[str, int], run: Any) -> None:
    """The chosen configuration's second seed and, when it has the teacher loss, its control: the teacher loss
    alone (no paraphrase loss) with the same settings on the same sentences."""
    name = results.data["choices"].get("best_static") or best_static(results)
    keys = (*CURVE_KEYS, "data")
    best = {k: results.rows[name][k] for k in keys if k in results.rows[name]}
    jobs = [static_job(f"{name}-s2", **{**best, "seed": 2})]
    if best.get("static_teacher_loss"):
        jobs.append(static_job(f"{name}-teacheronly", **best, paraphrase_weight=0.0))
    run(jobs)


def phase_d(results: Results, sets: dict[str, int], run: Any) -> None:
    """Learning curves: of the main configuration (all ranked pairs at the learning rate chosen on STS2017, no
    teacher loss) and of the best static row on STS2017 (``bestcurve-<n>``)."""
    curve = [r for n, r in results.rows.items() if n.startswith("curve-")]  # a curve begun at another rate goes on
    lr = curve[0]["lr"] if curve else results.data["choices"]["static_lr"]
    main = results.rows[f"static-all-lr{lr:g}"]
    results.data["choices"]["curve_row"] = main["name"]
    run([static_job(f"curve-{n}", f"all-{n}", **{k: main[k] for k in CURVE_KEYS if k in main}) for n in CURVE])
    best = results.rows[best_static(results)]
    if best["data"] == "all":  # a curve is of nested samples of all ranked pairs
        results.data["choices"]["best_curve_row"] = best["name"]
        run([static_job(f"bestcurve-{n}", f"all-{n}", **{k: best[k] for k in CURVE_KEYS if k in best})
             for n in CURVE])


def disk_size(directory: Path) -> int:
    return sum(p.stat().st_size for p in Path(directory).rglob("*") if p.is_file())


def speed(results: Results, frontier_json: Path) -> None:
    """The table's speed rows (and sizes on disk) from the frontier's timing of the same models
    (``benchmarks.reproduction.frontier``: one pinned thread, MiniLM in the same run), so every page shows one
    measurement."""
    if not frontier_json.is_file():
        raise SystemExit(f"error: {shown(frontier_json)} is missing: run the frontier phase first")
    timed = json.loads(frontier_json.read_text(encoding="utf-8"))
    rows = {row["encoder"]: row for row in timed["rows"]}
    picks = {label: name for label, name in frontier_picks(results).items()
             if label in rows and shown(model_path(results.rows[name])) in timed["meta"]["command"]}
    out = {}
    for label, name in [*picks.items(), (MINILM, MINILM)]:
        row = rows[label]
        directory = minilm_directory() if name == MINILM else model_path(results.rows[name])
        out[label] = {"row": name, **{k: row[k] for k in ("sentences_per_cpu_second", "rounds", "spread", "x_minilm",
                                                          "wall_sentences_per_second", "wall_x_minilm")},
                      "disk_bytes": disk_size(directory)}
    if "minilm" not in results.data:
        results.data["minilm"] = {"eval": scores(MINILM, sts.minilm_encoder())}
    meta = timed["meta"]
    results.data["speed"] = {"source": shown(frontier_json), "encoders": out,
                             **{k: meta[k] for k in ("command", "speed", "rounds", "min_seconds", "cpu", "protocol",
                                                     "pinning")}}
    results.save()
    for label, row in out.items():
        print(f"  {label}: {row['sentences_per_cpu_second']:,.0f} sentences per CPU-second ({row['x_minilm']:.0f}x "
              "MiniLM), "
              f"{row['disk_bytes'] / 1e6:.1f} MB", flush=True)


def local_models(results: Results, names: Sequence[str], data: Path, runs: Path, workers: int) -> None:
    """Train here the rows of ``names`` whose model is not on this machine (rows run on another machine keep only
    their numbers; the runs are deterministic, so the retrained model is the one the row measured)."""
    missing = [n for n in names if n in results.rows
               and not model_path(results.rows[n]).is_dir()]
    for name in list(missing):  # trained here earlier (e.g. by an interrupted call)
        if (runs / name / "model" / "model.json").is_file():
            results.rows[name]["model_dir"] = shown(runs / name / "model")
            missing.remove(name)
    if not missing:
        results.save()
        return
    jobs = [{k: v for k, v in results.rows[n].items() if k not in ("eval", "train_s", "eval_s", "model_dir",
                                                                   "steps", "machine")} for n in missing]
    with one_thread_pool(workers) as pool:
        for job, row in zip(jobs, pool.map(run_job, jobs, [data] * len(jobs), [runs] * len(jobs)), strict=True):
            results.rows[job["name"]]["model_dir"] = row["model_dir"]
            results.rows[job["name"]]["eval_here"] = row["eval"]
            results.save()


FRONTIER = {"word-all": "WORD", "trigram-all": "TRIGRAM", "sp-all": "SP", "trigram,sp-all": "TRIGRAM,SP",
            "static,trigram-all": "STATIC,TRIGRAM"}  # rows the frontier shows beside the static ones, as labelled


def frontier_picks(results: Results) -> dict[str, str]:
    """The frontier's label -> row of this table, for the models on this machine."""
    picks = {"STATIC (distilled)": "distilled", "STATIC": best_static(results, local=True)}
    picks.update({label: name for name, label in FRONTIER.items()
                  if name in results.rows and model_path(results.rows[name]).is_dir()})
    return picks


def frontier(results: Results, docs: Path | None, n: int, rounds: int, min_seconds: float, out: Path) -> None:
    """``benchmarks.reproduction.frontier`` over this table's models (every one in the repository's ``runs/``): the
    frontier section of ``docs``, its PNG and ``out`` (``benchmarks/results/frontier.json``), every speed timed once."""
    picks = frontier_picks(results)
    argv = [a for label, name in picks.items()
            for a in ("--model", f"{label}={shown(model_path(results.rows[name]))}")]
    argv += ["--speed", str(n), "--rounds", str(rounds), "--min-seconds", str(min_seconds), "--json", str(out),
             "--note", f"STATIC is {picks['STATIC']} of benchmarks/results/static_table.json (the best static row on "
             "STS2017); every model here was trained by `python -m benchmarks.reproduction.static_table` on all the "
             "ranked pairs of `python -m benchmarks.reproduction.corpora`'s bitext corpus."]
    for label, name in picks.items():  # a row run on another machine, retrained here, may score differently
        row = results.rows[name]
        here = row.get("eval_here", row["eval"])
        if any(abs(here[k] - row["eval"][k]) >= 0.05 for k in ("mean", "stsb_test", "sts2017")):
            argv += ["--note", f"{label} ({name}) was retrained here to be timed: its quality above is this model's; "
                     f"the table's row, trained on another machine, has {row['eval']['mean']:.1f} / "
                     f"{row['eval']['stsb_test']:.1f} / {row['eval']['sts2017']:.1f}."]
    if docs is not None:
        argv += ["--docs", str(docs)]
    if frontier_main(argv) != 0:
        raise SystemExit("error: the frontier failed")


def model_path(row: dict[str, Any]) -> Path:
    """A row's saved model (stored relative to the repository; rows run on another machine have none)."""
    return REPO / row["model_dir"] if "model_dir" in row else Path("/nonexistent")


def build_parser() -> argparse.ArgumentParser:
    p = argument_parser(__file__, __doc__, result=REPO / "benchmarks" / "results" / "static_table.json")
    p.add_argument("--corpora", type=Path, default=CORPORA,
                   help="benchmarks.reproduction.corpora's output (runs/corpora)")
    p.add_argument("--out", type=Path, default=REPO / "runs" / "static-table", help="training sets and runs")
    p.add_argument("--workers", type=int, default=2, help="runs at a time, one thread each (default 2)")
    p.add_argument("--phases", default="teacher,a,b,c,e,f,d,g,lo,frontier,speed",
                   help="comma-separated subset of teacher (the teacher vectors, cached), a, b, c, e, f, d, g, lo, "
                   "frontier (benchmarks.reproduction.frontier over these models: every speed, timed once, into --docs "
                   "and benchmarks/results/frontier.json), speed (the table's speed rows, read from that JSON)")
    p.add_argument("--speed", type=int, default=1000, help="timed sentences per pass (default 1000)")
    p.add_argument("--rounds", type=int, default=5, help="timing rounds (default 5)")
    p.add_argument("--min-seconds", type=float, default=2.0, help="timed CPU seconds per round at least (default 2)")
    p.add_argument("--docs", type=Path, help="markdown page whose 'static' section is (re)written")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    data, runs = args.out / "data", args.out / "runs"
    sets = prepare(args.corpora, data)
    results = Results(args.json)
    results.data["sets"] = {**results.data.get("sets", {}), **sets}  # a corpus not rebuilt here keeps its rows' sizes
    results.data.setdefault("choices", {})

    def run(jobs: list[dict[str, Any]]) -> None:
        run_jobs(jobs, results, data, runs, args.workers)
        results.save()

    phases = {"a": phase_a, "b": phase_b, "c": phase_c, "e": phase_e, "f": phase_f, "d": phase_d,
              "g": phase_g, "lo": phase_lo}
    for phase in args.phases.split(","):
        print(f"[phase {phase}]", flush=True)
        if phase == "speed":
            speed(results, FRONTIER_JSON)
        elif phase == "teacher":
            teacher_vectors(data, sets)
        elif phase == "frontier":  # rows run elsewhere keep their numbers, not their models: retrained here
            local_models(results, ["distilled", best_static(results), *FRONTIER], data, runs, args.workers)
            frontier(results, args.docs, args.speed, args.rounds, args.min_seconds, FRONTIER_JSON)
        else:
            phases[phase](results, sets, run)
        results.save()
    if args.docs:
        write_section(results.data, args.docs)
        print(f"wrote the static section of {args.docs} and its figure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
