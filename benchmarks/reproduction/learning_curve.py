"""How quality grows with the number of back-translated pairs, which pairs to keep, and which domain to translate:
a learning curve, the selection rule as a variable, and Table 4 of ParaNMT-50M in miniature.

``--corpus`` is a ``pipeline.run`` output over the bitext of ``../shared/data/bitext``
(``benchmarks.reproduction.reproduce``'s corpus); ``--software`` the same over ``../shared/data/bitext-software``
(LibreOffice); ``benchmarks.reproduction.corpora`` builds both. Pools: the pairs the pipeline *ranked* (past the
selection's rules: no evaluation sentence, no copy), both sides ≤ 30 tokens, under three selection rules — ``top2`` (the
paper's: the top two paraphrase-score deciles = the pipeline's train/), ``thr0.8`` (paraphrase score ≥ 0.8) and ``all``;
sizes 2k, 5k, 11k, 30k and the whole pool, nested seeded samples (a smaller set is a prefix of a larger one). Table 4:
every ranked pair ≤ 30 tokens of one domain (Multi30k captions, Tatoeba, newstest, LibreOffice), all domains sampled to
the smallest one's size.

Every run: ParaNMT-50M §5.2 settings (Adam, batch 100, margin 0.4, MAX negatives), M = 20, 5 epochs, seed 1 (``--seeds``
adds others), the learning rates ``benchmarks.reproduction.reproduce`` chose on STS2017 (WORD 0.01, TRIGRAM 0.001; SP
and LSTM 0.001), GloVe 6B 50d for word tables (``unseen_words: mapped``, and the same model re-evaluated with its unseen
words left at GloVe: the WORD fix before → after). Evaluated on STS 2012–2015 (mean of per-year mean Pearson), STS-B
test, STS2017. Runs go ``--workers`` at a time on one CPU thread each; runs of ≥ 30k pairs, LSTMs and combinations go to
the GPU when there is one (``--gpu-workers`` at a time). ``results.json`` grows as runs finish; a rerun skips them.

The docs section ``learning-curve`` gets the tables, ``learning_curve.png`` and the log-linear fit
(``mean = a + b·log10(pairs)`` per model on the ``all`` rule, least squares, 95% prediction intervals from the t
distribution) with its predictions at 1M and 5M pairs beside the paper's numbers.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.doc_sections import replace_section, save_figure, table
from benchmarks.reproduction.frontier import sts_row, sts_summary
from benchmarks.result import argument_parser, write_result
from configs.schema import TrainConfig
from paranmt.core.plotting import pyplot
from paranmt.core.text import CachedTokenizer
from paranmt.core.word_vectors import load_word_vectors
from train_embeddings.evaluation import sts
from train_embeddings.models.model_io import load_model
from train_embeddings.training.trainer import train

SIZES = (2000, 5000, 11000, 30000)
LR = {"word": 0.01, "trigram": 1e-3, "sp": 1e-3, "lstm": 1e-3}
LABEL = {"word": "WORD", "trigram": "TRIGRAM", "sp": "SP", "lstm": "LSTM", "word,trigram": "WORD,TRIGRAM",
         "trigram,sp": "TRIGRAM,SP", "word,trigram,sp": "WORD,TRIGRAM,SP"}
RULES = {"top2": "top two deciles (paper)", "thr0.8": "paraphrase score ≥ 0.8", "all": "all ranked pairs"}
DOMAINS = ("captions", "tatoeba", "news", "libreoffice")
# ParaNMT-50M Table 8 (trained on PARANMT, 300-d): mean of STS 2012–2015; and Table 4 (STS2017, 100k CzEng pairs).
PAPER_MEAN = {"word": (66.2 + 61.8 + 76.2 + 79.3) / 4, "trigram": (67.2 + 60.3 + 76.1 + 79.7) / 4,
              "lstm": (67.0 + 62.3 + 76.3 + 78.5) / 4}
PAPER_TABLE4 = {"word": 83.6, "trigram": 81.5, "lstm": 82.5}
COLUMNS = ["id", "en_tokens", "mt_tokens", "paraphrase_score"]
MODELS = ("word", "trigram", "sp")  # the grid's models; the extras add LSTM and combinations
METRICS = ("mean", "stsb_test", "sts2017")


def ranked_pairs(run: Path) -> Any:
    """A pipeline run's ranked pairs (in a fold), both sides at most 30 tokens: what the training sets draw from."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(run / "pairs")
    table = table.filter(pc.greater(pc.fill_null(table["fold"], 0), 0))
    short = pc.and_(pc.less_equal(pc.list_value_length(table["en_tokens"]), 30),
                    pc.less_equal(pc.list_value_length(table["mt_tokens"]), 30))
    return table.filter(short)


def prepare(corpus: Path, software: Path, out: Path, seed: int = 1) -> dict[str, Any]:
    """Write the training sets (``lc-<rule>-<n>.parquet``, ``t4-<domain>.parquet``) and ``sets.json``."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    bitext = ranked_pairs(corpus)
    sources = np.array([Path(s).stem for s in bitext["source"].to_pylist()])
    score = bitext["paraphrase_score"].to_numpy()
    keep = pc.fill_null(bitext["keep"], False).to_numpy(zero_copy_only=False)
    pools = {"top2": np.flatnonzero(keep), "all": np.arange(bitext.num_rows), "thr0.8": np.flatnonzero(score >= 0.8)}
    info: dict[str, Any] = {"pools": {k: len(v) for k, v in pools.items()}, "sets": {}}
    rng = np.random.default_rng(seed)
    for name, pool in pools.items():
        order = pool[rng.permutation(len(pool))]
        for n in [*(s for s in SIZES if s < len(pool) and not (name == "top2" and s > 0.9 * len(pool))), len(pool)]:
            pq.write_table(bitext.select(COLUMNS).take(pa.array(np.sort(order[:n]))), out / f"lc-{name}-{n}.parquet")
            info["sets"][f"lc-{name}-{n}"] = n
    lo = ranked_pairs(software)
    domains = {"captions": np.flatnonzero(np.char.startswith(sources, "multi30k")),
               "tatoeba": np.flatnonzero(sources == "tatoeba"),
               "news": np.flatnonzero(np.char.startswith(sources, "newstest"))}
    n = min(min(len(v) for v in domains.values()), lo.num_rows)
    info["table4_size"] = n
    info["table4_pools"] = {**{k: len(v) for k, v in domains.items()}, "libreoffice": lo.num_rows}
    for name, pool in domains.items():
        rows = np.sort(rng.choice(pool, n, replace=False))
        pq.write_table(bitext.select(COLUMNS).take(pa.array(rows)), out / f"t4-{name}.parquet")
    rows = np.sort(rng.choice(lo.num_rows, n, replace=False))
    pq.write_table(lo.select(COLUMNS).take(pa.array(rows)), out / "t4-libreoffice.parquet")
    (out / "sets.json").write_text(json.dumps(info, indent=1), encoding="utf-8")
    return info


def seed_jobs(sets: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """The learning curve and Table 4 again with another seed (names end in ``-s<seed>``), for their spread."""
    jobs = [j for j in job_list(sets) if j["name"] == f"{j['data']}-{j['model']}"]
    return [{**j, "name": f"{j['name']}-s{seed}", "seed": seed} for j in jobs]


def job_list(sets: dict[str, Any]) -> list[dict[str, Any]]:
    """The grid: three models per learning-curve set and per domain, then the extras at the largest pool."""
    jobs = [{"name": f"{name}-{model}", "data": name, "model": model, "lr": LR[model], "n": n}
            for name, n in sets["sets"].items() for model in MODELS]
    jobs += [{"name": f"t4-{d}-{model}", "data": f"t4-{d}", "model": model, "lr": LR[model], "n": sets["table4_size"]}
             for d in DOMAINS for model in MODELS]
    big = max((k for k in sets["sets"] if k.startswith("lc-all-")), key=lambda k: sets["sets"][k])
    top = max((k for k in sets["sets"] if k.startswith("lc-top2-")), key=lambda k: sets["sets"][k])
    nb, nt = sets["sets"][big], sets["sets"][top]
    jobs += [{"name": f"{big}-lstm", "data": big, "model": "lstm", "lr": 1e-3, "n": nb},
             {"name": f"{top}-lstm", "data": top, "model": "lstm", "lr": 1e-3, "n": nt},
             {"name": f"{big}-word,trigram,sp", "data": big, "model": "word,trigram,sp", "lr": 1e-3, "n": nb},
             {"name": f"{big}-trigram,sp", "data": big, "model": "trigram,sp", "lr": 1e-3, "n": nb},
             {"name": f"{big}-word,trigram", "data": big, "model": "word,trigram", "lr": 1e-2, "n": nb},
             {"name": f"{top}-sp-lr0.01", "data": top, "model": "sp", "lr": 1e-2, "n": nt},
             {"name": f"{big}-sp-lr0.01", "data": big, "model": "sp", "lr": 1e-2, "n": nb},
             {"name": f"{big}-sp-v8k", "data": big, "model": "sp", "lr": 1e-3, "n": nb, "sp_vocab_size": 8000},
             {"name": f"{big}-sp-v32k", "data": big, "model": "sp", "lr": 1e-3, "n": nb, "sp_vocab_size": 32000},
             {"name": f"{top}-word-lr0.001", "data": top, "model": "word", "lr": 1e-3, "n": nt}]
    for job in jobs:
        job["gpu"] = job["n"] >= 30000 or "lstm" in job["model"] or "," in job["model"]
    return jobs


_CACHE: dict[str, Any] = {}


def run_job(job: dict[str, Any], data: Path, runs: Path, device: str, word_vectors: str) -> dict[str, Any]:
    """Train one run (one thread) and evaluate its final model, also with its unseen words at GloVe."""
    import pyarrow as pa
    import torch

    torch.set_num_threads(1)
    started = time.perf_counter()
    uses_words = any(c not in ("trigram", "sp") for c in job["model"].split(","))
    config = {"data": str(data / f"{job['data']}.parquet"), "model": job["model"], "seed": job.get("seed", 1),
              "epochs": 5, "megabatch": 20, "lr": job["lr"], "threads": 1, "evals_per_epoch": 0, "device": device}
    if uses_words:
        config["word_vectors"] = word_vectors
    if "sp_vocab_size" in job:
        config["sp_vocab_size"] = job["sp_vocab_size"]
    result = train(TrainConfig(**config), runs / job["name"], evaluate_fn=None, progress=False)
    trained = time.perf_counter()
    if "bench" not in _CACHE:
        _CACHE["bench"] = sts.load_benchmarks(years=(2012, 2013, 2014, 2015))
        _CACHE["tok"] = CachedTokenizer()
    model = load_model(result.model_dir)

    def scores() -> dict[str, Any]:
        return sts_row(sts.evaluate_all(lambda s: model.encode_tokens(_CACHE["tok"](s)), data=_CACHE["bench"]))

    out = {**job, "device": device, "train_s": trained - started, "steps": result.steps, "eval": scores()}
    if uses_words and model.words is not None and model.words.n_frozen:
        if "glove" not in _CACHE:
            _CACHE["glove"] = load_word_vectors(None if word_vectors == "kumo" else word_vectors,
                                                "kumo" if word_vectors == "kumo" else "auto")
        glove = _CACHE["glove"]
        rows = glove.lookup(pa.array(model.words.words[model.words.n_trainable:], pa.string()))
        with torch.no_grad():
            for table in model.encoder.word_tables():
                table.frozen.copy_(torch.from_numpy(glove.matrix[rows]))
        out["eval_pretrained_unseen"] = scores()
    out["eval_s"] = time.perf_counter() - trained
    return out


def run_grid(data: Path, out: Path, workers: int, gpu_workers: int, word_vectors: str,
             seeds: Sequence[int] = (1,)) -> dict[str, Any]:
    import torch

    sets = json.loads((data / "sets.json").read_text(encoding="utf-8"))
    path = out / "results.json"
    previous = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"results": []}
    done = {r["name"] for r in previous["results"]}
    grid = job_list(sets) + [j for seed in seeds if seed != 1 for j in seed_jobs(sets, seed)]
    jobs = [j for j in grid if j["name"] not in done]
    cuda = torch.cuda.is_available() and gpu_workers > 0
    results, failed = list(previous["results"]), []
    print(f"{len(jobs)} runs to do ({len(done)} done earlier); GPU: {cuda}", flush=True)
    with one_thread_pool(workers) as cpu, one_thread_pool(max(gpu_workers, 1)) as gpu:
        futures = {}
        for job in sorted(jobs, key=lambda j: -j["n"]):
            pool, device = (gpu, "cuda") if (job["gpu"] and cuda) else (cpu, "cpu")
            futures[pool.submit(run_job, job, data, out / "runs", device, word_vectors)] = job
        for job, row in finished(futures):
            if isinstance(row, Exception):
                failed.append({"name": job["name"], "error": repr(row)})
                continue
            results.append(row)
            print(f"  {len(results)}/{len(done) + len(jobs)} {job['name']}: {sts_summary(row['eval'])} "
                  f"({row['train_s']:.0f} s)", flush=True)
            write_result(path, {"results": results, "failed": failed}, __file__)
    return {"results": results, "failed": failed}


def _one_thread() -> None:
    os.environ["OMP_NUM_THREADS"] = "1"


def one_thread_pool(workers: int) -> cf.ProcessPoolExecutor:
    """``workers`` fresh processes (spawned: nothing of this one's torch state), each run on one thread."""
    return cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_one_thread)


def finished(futures: dict[cf.Future, dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Any]]:
    """Each job with its row, or the exception that ended its run (printed), as the runs finish: one failed run
    must not lose the others."""
    for future in cf.as_completed(futures):
        job = futures[future]
        try:
            row = future.result()
        except Exception as error:
            print(f"  {job['name']}: FAILED {error!r}", flush=True)
            row = error
        yield job, row


def fit_log_linear(sizes: Sequence[float], values: Sequence[float], at: Sequence[float]) -> dict[str, Any]:
    """``value = a + b·log10(size)`` by least squares; 95% prediction intervals at ``at`` (t with n−2 dof)."""
    from scipy import stats

    x, y = np.log10(np.asarray(sizes, float)), np.asarray(values, float)
    n = len(x)
    b, a = np.polyfit(x, y, 1)
    residual = y - (a + b * x)
    s = math.sqrt(float(residual @ residual) / (n - 2)) if n > 2 else float("nan")
    sxx = float(((x - x.mean()) ** 2).sum())
    t = float(stats.t.ppf(0.975, n - 2)) if n > 2 else float("nan")
    predictions = {}
    for point in at:
        x0 = math.log10(point)
        half = t * s * math.sqrt(1 + 1 / n + (x0 - x.mean()) ** 2 / sxx)
        predictions[str(int(point))] = {"value": a + b * x0, "low": a + b * x0 - half, "high": a + b * x0 + half}
    return {"a": a, "b": b, "slope_se": s / math.sqrt(sxx), "residual_sd": s, "n": n, "predictions": predictions}


def aggregate(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per run setting: every score averaged over its seeds (``seeds``; ``sd``: their standard deviation
    per metric, 0 with one seed); a seed-``k`` run is named ``<setting>-s<k>``."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        seed = r.get("seed", 1)
        base = r["name"][:-len(f"-s{seed}")] if seed != 1 and r["name"].endswith(f"-s{seed}") else r["name"]
        groups.setdefault(base, []).append(r)
    rows = []
    for base, runs in groups.items():
        row = {**runs[0], "name": base, "seeds": sorted(r.get("seed", 1) for r in runs),
               "train_s": float(np.mean([r["train_s"] for r in runs]))}
        for key in ("eval", "eval_pretrained_unseen"):
            if all(key in r for r in runs):
                row[key] = {m: float(np.mean([r[key][m] for r in runs])) for m in METRICS}
        row["sd"] = {m: float(np.std([r["eval"][m] for r in runs], ddof=1)) if len(runs) > 1 else 0.0
                     for m in METRICS}
        rows.append(row)
    return rows


def analyse(results: list[dict[str, Any]]) -> dict[str, Any]:
    results = aggregate(results)
    by_name = {r["name"]: r for r in results}
    curve: dict[str, dict[str, list[tuple[int, dict[str, float]]]]] = {}
    for r in results:
        parts = r["name"].split("-")
        if parts[0] != "lc" or r["model"] not in MODELS or r["name"] != f"{r['data']}-{r['model']}":
            continue
        curve.setdefault(parts[1], {}).setdefault(r["model"], []).append((r["n"], {**r["eval"], "sd": r["sd"]}))
    for per_model in curve.values():
        for points in per_model.values():
            points.sort(key=lambda p: p[0])
    fits = {model: fit_log_linear([n for n, _ in pts], [e["mean"] for _, e in pts], (1_000_000, 5_000_000))
            for model, pts in curve.get("all", {}).items() if len(pts) >= 3}
    return {"curve": curve, "fits": fits, "by_name": by_name}


def plot_curve(analysis: dict[str, Any], path: Path) -> None:
    plt = pyplot()
    import matplotlib.ticker

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    styles = {"top2": "o-", "thr0.8": "s--", "all": "^-"}
    colours = {"word": "tab:orange", "trigram": "tab:blue", "sp": "tab:green"}
    for rule, per_model in analysis["curve"].items():
        for model, points in per_model.items():
            for ax, key in zip(axes, ("mean", "stsb_test"), strict=True):
                ax.plot([n for n, _ in points], [e[key] for _, e in points], styles[rule], color=colours[model],
                        label=f"{LABEL[model]}, {RULES[rule]}", alpha=0.9 if rule == "all" else 0.6)
    grid = np.logspace(np.log10(2000), np.log10(5_000_000), 50)
    for model, fit in analysis["fits"].items():
        axes[0].plot(grid, fit["a"] + fit["b"] * np.log10(grid), ":", color=colours[model], alpha=0.7)
        for point in ("1000000", "5000000"):
            p = fit["predictions"][point]
            axes[0].errorbar(int(point), p["value"], yerr=[[p["value"] - p["low"]], [p["high"] - p["value"]]],
                             fmt="x", color=colours[model], capsize=3)
    for model, value in PAPER_MEAN.items():
        if model in colours:
            axes[0].scatter([5_000_000], [value], marker="*", s=120, color=colours[model], edgecolor="k", zorder=4)
    axes[0].set_title("STS 2012–2015 mean (dotted: log-linear fit on 'all'; x: its 1M/5M prediction, 95% PI; "
                      "★ paper)", fontsize=8)
    axes[1].set_title("STS-B test")
    for ax in axes:
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("training pairs")
        ax.set_ylabel("Pearson × 100")
        ax.grid(alpha=0.3, which="both")
    axes[1].legend(fontsize=7)
    save_figure(fig, path)


def _curve_cell(e: dict[str, Any] | None) -> str:
    if e is None:
        return "–"
    return f"{e['mean']:.1f} ± {e['sd']['mean']:.1f} / {e['stsb_test']:.1f} / {e['sts2017']:.1f}"


def markdown(analysis: dict[str, Any], sets: dict[str, Any] | None, figure: str, command: str, where: str) -> str:
    by = analysis["by_name"]
    lines = ["## Learning curve, selection rule and training domain", "",
             f"Written by `{command}`; runs: {where}. Every run: M = 20, 5 epochs, Adam, WORD lr 0.01 "
             "(chosen on STS2017 by `benchmarks.reproduction.reproduce`), TRIGRAM / SP / LSTM 0.001, GloVe 6B 50d for "
             "word tables. Pearson × 100: STS 2012–2015 = mean of per-year means; STS2017 is the only set any choice "
             "below looks at.", ""]
    if sets:
        lines += ["Pools (ranked pairs: no evaluation sentence, no copy; both sides ≤ 30 tokens): "
                  + ", ".join(f"{RULES[k]} {v:,}" for k, v in sets["pools"].items()) + ".", ""]
    seeds = sorted({s for r in by.values() for s in r.get("seeds", [1])})
    lines += [f"Seeds {', '.join(map(str, seeds))} for the learning curve, Table 4, the LSTMs and the combinations "
              "(every number is their mean; ± the standard deviation of the STS 12–15 mean over the seeds); the "
              "other settings, seed 1.", "",
              "### Learning curve (STS 12–15 mean ± sd over seeds / STS-B test / STS2017)", ""]
    lines += table(["rule", "pairs", "WORD", "TRIGRAM", "SP"], "lrl",
                   [[RULES[rule], f"{n:,}", *(_curve_cell(dict(per_model.get(m, [])).get(n)) for m in MODELS)]
                    for rule, per_model in analysis["curve"].items()
                    for n in sorted({n for pts in per_model.values() for n, _ in pts})])
    lines += ["", f"![learning curve]({figure})", "", "### The trend, and what it predicts",  "",
              "`mean = a + b·log10(pairs)` fitted per model on the `all` rule (5 sizes), least squares; 95% "
              "prediction intervals (t, 3 dof). The paper's models were trained on ParaNMT (5M pairs selected from "
              "51M, 300-d PARAGRAM-SL999 words; Table 8 of ParaNMT-50M, mean of 2012–2015).", ""]
    lines += table(["model", "slope per ×10 pairs", "predicted at 1M", "predicted at 5M", "paper (5M ParaNMT pairs)"],
                   "lr", [[LABEL[model], f"{fit['b']:+.2f} ± {fit['slope_se']:.2f}",
                           *(f"{p['value']:.1f} [{p['low']:.1f}, {p['high']:.1f}]"
                             for p in fit["predictions"].values()),
                           f"{PAPER_MEAN[model]:.1f}" if model in PAPER_MEAN else "–"]
                          for model, fit in analysis["fits"].items()])
    t4 = {d: {m: by.get(f"t4-{d}-{m}") for m in MODELS} for d in DOMAINS}
    if any(v for per in t4.values() for v in per.values()):
        size = sets["table4_size"] if sets else next(v for per in t4.values() for v in per.values() if v)["n"]
        lines += ["", "### Table 4 in miniature: which bitext to back-translate", "",
                  f"{size:,} pairs from each domain (all its ranked pairs ≤ 30 tokens, sampled to the smallest "
                  "domain's size). STS2017 as in the paper's Table 4 (STS 12–15 mean in brackets). Paper, 100k pairs "
                  f"of CzEng: WORD {PAPER_TABLE4['word']}, TRIGRAM {PAPER_TABLE4['trigram']}, LSTM "
                  f"{PAPER_TABLE4['lstm']}.", ""]
        names = {"captions": "Multi30k captions", "tatoeba": "Tatoeba", "news": "newstest 2009–2015",
                 "libreoffice": "LibreOffice help + UI"}
        lines += table(["training domain", "WORD", "TRIGRAM", "SP"], "lr",
                       [[names[d], *("–" if r is None else f"{r['eval']['sts2017']:.1f} ± {r['sd']['sts2017']:.1f} "
                                     f"({r['eval']['mean']:.1f})" for r in per.values())] for d, per in t4.items()])
    word_rows = [r for r in analysis["by_name"].values() if "eval_pretrained_unseen" in r and r["model"] == "word"
                 and r["name"] == f"{r['data']}-word" and r["data"].startswith("lc-")]
    if word_rows:
        lines += ["", "### WORD: unseen words before → after the fix (`unseen_words: pretrained` → `mapped`)", "",
                  "The same trained model evaluated twice: pretrained words never seen in training keep their "
                  "GloVe vectors (before) or get the ridge map from the trained words' initial to trained vectors "
                  "(after; `train_embeddings/training/unseen_words.py`).", ""]
        rows = sorted(word_rows, key=lambda r: (r["data"].split("-")[1], r["n"]))
        lines += table(["set", "pairs", "STS 12–15 before → after", "STS-B test before → after",
                        "STS2017 before → after"], "lrl",
                       [[RULES[r["data"].split("-")[1]], f"{r['n']:,}",
                         *(f"{r['eval_pretrained_unseen'][m]:.1f} → {r['eval'][m]:.1f}" for m in METRICS)]
                        for r in rows])
    extras = [r for r in analysis["by_name"].values() if r["name"] != f"{r['data']}-{r['model']}"
              or r["model"] not in MODELS]
    if extras:
        lines += ["", "### Settings, LSTM and combinations", ""]
        lines += table(["run", "pairs", "lr", "seeds", "STS 12–15", "STS-B test", "STS2017", "train s (device)"],
                       "lr", [[r["name"], f"{r['n']:,}", f"{r['lr']:g}", len(r["seeds"]),
                               *(f"{r['eval'][m]:.1f}" for m in METRICS), f"{r['train_s']:.0f} ({r['device']})"]
                              for r in sorted(extras, key=lambda r: r["name"])])
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    p = argument_parser(__file__, __doc__)
    p.add_argument("--corpus", type=Path, help="pipeline.run output over ../shared/data/bitext")
    p.add_argument("--software", type=Path, help="pipeline.run output over ../shared/data/bitext-software")
    p.add_argument("--out", type=Path, help="run folder: data/, runs/, results.json")
    p.add_argument("--results", type=Path, help="only write the docs from this results.json")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--gpu-workers", type=int, default=3)
    p.add_argument("--seeds", type=int, nargs="+", default=[1],
                   help="seeds of the learning curve and Table 4 (the extras run with seed 1 only)")
    p.add_argument("--word-vectors", default="kumo", help="initial word vectors (default kumo: GloVe 6B 50d)")
    p.add_argument("--docs", type=Path, help="markdown page whose 'learning-curve' section is (re)written")
    p.add_argument("--where", default="this machine", help="how the docs describe where the runs ran")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sets = None
    if args.results is not None:
        if not args.results.is_file():
            print(f"error: --results {args.results}: no such file", file=sys.stderr)
            return 2
        results = json.loads(args.results.read_text(encoding="utf-8"))
        sets_file = args.results.parent / "data" / "sets.json"
        sets = json.loads(sets_file.read_text(encoding="utf-8")) if sets_file.is_file() else results.get("sets")
    else:
        if not (args.corpus and args.software and args.out):
            print("error: give --corpus, --software and --out (or --results)", file=sys.stderr)
            return 2
        for path in (args.corpus / "pairs", args.software / "pairs"):
            if not path.is_dir():
                print(f"error: {path} is not a pipeline.run pairs/ folder", file=sys.stderr)
                return 2
        data = args.out / "data"
        sets = json.loads((data / "sets.json").read_text()) if (data / "sets.json").is_file() else \
            prepare(args.corpus, args.software, data)
        results = run_grid(data, args.out, args.workers, args.gpu_workers, args.word_vectors, args.seeds)
    analysis = analyse(results["results"])
    if args.docs:
        figure = args.docs.parent / args.docs.stem / "learning_curve.png"
        plot_curve(analysis, figure)
        command = ("python -m benchmarks.reproduction.learning_curve "
                   + (f"--results {args.results}" if args.results
                      else f"--corpus {args.corpus} --software {args.software} --out {args.out}")
                   + f" --docs {args.docs}")
        replace_section(args.docs, "learning-curve",
                        markdown(analysis, sets, f"{args.docs.stem}/learning_curve.png", command, args.where))
        print(f"wrote the learning-curve section of {args.docs} and {figure}")
    fits = {m: {k: round(v["value"], 1) for k, v in f["predictions"].items()} for m, f in analysis["fits"].items()}
    print(json.dumps({"fits": fits, "runs": len(results["results"]), "failed": len(results.get("failed", []))}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
