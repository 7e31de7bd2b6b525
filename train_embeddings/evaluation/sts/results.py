"""STS results: per-dataset and per-year correlations, the report, its JSON and Markdown forms.

**Protocols** (both in every report):

* *papers'* (ParaNMT-50M Tables 8–9, Wieting et al.): Pearson's r per sub-dataset, then the unweighted **mean over
  the sub-datasets of a year**; STS-B: Pearson on the split. The mean of the Spearman's ρ per sub-dataset and the
  pair-weighted mean of Pearson (the competitions' official figure) are given too.
* *pooled*: the scored pairs of all sub-datasets of a year are concatenated and **one Spearman's ρ** is computed
  over them (the "all" setting of SentEval/SimCSE; MTEB's STS12–STS16 tasks are these pooled sets).
* *MTEB* (the main score of MTEB's STS tasks): cosine similarity, Spearman's ρ × 100 on STS12, STS13, STS14,
  STS15, STS16 (pooled, as above) and STSBenchmark (the STS-B test split), and their mean:
  :meth:`StsReport.mteb_scores`. :func:`markdown_protocols` puts it and the papers' protocol in one table.

Correlations are raw (in [-1, 1]; ×100 only in the Markdown tables); an undefined one is NaN, written as ``null``
in JSON.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["CAPTION_SETS", "MTEB_TASKS", "PROTOCOL", "STSB_RESULTS", "DatasetResult", "StsReport", "YearResult",
           "markdown_comparison", "markdown_protocols"]

CAPTION_SETS: tuple[tuple[int, str], ...] = ((2012, "MSRvid"), (2014, "images"), (2015, "images"))

# Keys of StsReport.stsb, in display order, with their labels.
STSB_RESULTS: dict[str, str] = {
    "sts2017": "STS2017 dev (track5.en-en of STS-B dev + test)",
    "stsb_dev": "STS-B dev",
    "stsb_test": "STS-B test",
    "stsb_test_no_sts2017": "STS-B test without STS2017",
}


def _json_number(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


@dataclass(frozen=True)
class DatasetResult:
    """Correlations of one dataset: Pearson's r and Spearman's ρ (raw, in [-1, 1]) over ``n`` scored pairs."""

    name: str
    year: int | None
    n: int
    pearson: float
    spearman: float
    unscored: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "year": self.year, "n": self.n, "pearson": _json_number(self.pearson),
                "spearman": _json_number(self.spearman), "unscored_skipped": self.unscored}


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return float(np.mean(values)) if values else math.nan


@dataclass(frozen=True)
class YearResult:
    """One STS year: per sub-dataset results, the papers' means, and the pooled ("all") correlations."""

    year: int
    datasets: tuple[DatasetResult, ...]
    pooled_spearman: float
    pooled_pearson: float
    missing_input: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return sum(d.n for d in self.datasets)

    @property
    def mean_pearson(self) -> float:
        """The papers' figure: unweighted mean of the sub-datasets' Pearson's r."""
        return _mean(d.pearson for d in self.datasets)

    @property
    def mean_spearman(self) -> float:
        return _mean(d.spearman for d in self.datasets)

    @property
    def weighted_mean_pearson(self) -> float:
        """Mean Pearson weighted by pairs (the competitions' official figure)."""
        if not self.n:
            return math.nan
        return float(sum(d.pearson * d.n for d in self.datasets) / self.n)

    def dataset(self, name: str) -> DatasetResult:
        for result in self.datasets:
            if result.name == name:
                return result
        raise KeyError(f"STS {self.year} has no sub-dataset {name!r} (has {[d.name for d in self.datasets]})")

    def to_dict(self) -> dict[str, Any]:
        return {"year": self.year, "n": self.n,
                "datasets": {d.name: d.to_dict() for d in self.datasets},
                "mean_pearson": _json_number(self.mean_pearson),
                "mean_spearman": _json_number(self.mean_spearman),
                "weighted_mean_pearson": _json_number(self.weighted_mean_pearson),
                "pooled_spearman": _json_number(self.pooled_spearman),
                "pooled_pearson": _json_number(self.pooled_pearson),
                "missing_input": list(self.missing_input)}


# MTEB's English STS tasks this report covers: task name -> STS year (None: STS-B test).
MTEB_TASKS: dict[str, int | None] = {"STS12": 2012, "STS13": 2013, "STS14": 2014, "STS15": 2015, "STS16": 2016,
                                     "STSBenchmark": None}

PROTOCOL = {
    "similarity": "cosine of the encoder's sentence vectors (0 where a vector is zero)",
    "papers": "Pearson's r per sub-dataset; a year's figure is the unweighted mean over its sub-datasets "
              "(ParaNMT-50M Table 8); STS-B: Pearson on the split (Table 9)",
    "pooled": "one Spearman's rho over all scored pairs of a year, sub-datasets concatenated "
              "(SentEval/SimCSE 'all', MTEB STS12-16)",
    "unscored": "pairs with an empty gold line are skipped; sub-datasets without input are skipped",
    "sts2017": "track5.en-en rows of STS-B dev + test (250 pairs): the dev set for model selection",
    "mteb": "cosine, Spearman's rho on STS12-16 (pooled) and STSBenchmark (STS-B test); MTEB's main score",
}


@dataclass(frozen=True)
class StsReport:
    """Results of :func:`~train_embeddings.evaluation.sts.evaluator.evaluate_all`; correlations are raw (×100 only in
    :meth:`markdown`)."""

    years: tuple[YearResult, ...]
    stsb: Mapping[str, DatasetResult] = field(default_factory=dict)
    missing_years: tuple[int, ...] = ()
    label: str = ""
    seconds: float = 0.0

    def year(self, year: int) -> YearResult:
        for result in self.years:
            if result.year == year:
                return result
        raise KeyError(f"no STS {year} in this report (has {[r.year for r in self.years]})")

    @property
    def mean_pearson(self) -> float:
        """Mean over the evaluated years of the per-year mean Pearson (the last column one would add to Table 8)."""
        return _mean(y.mean_pearson for y in self.years)

    @property
    def mean_pooled_spearman(self) -> float:
        return _mean(y.pooled_spearman for y in self.years)

    @property
    def all_datasets_mean_pearson(self) -> float:
        """Mean Pearson over every sub-dataset of every year (ParaNMT-50M Table 10's "all 25 datasets")."""
        return _mean(d.pearson for y in self.years for d in y.datasets)

    def mteb_scores(self) -> dict[str, float]:
        """MTEB's main score (cosine Spearman, raw) per STS task present (STS12–16 pooled, STSBenchmark = STS-B
        test), plus ``"mean"`` over them."""
        out: dict[str, float] = {}
        for task, year in MTEB_TASKS.items():
            if year is None:
                if "stsb_test" in self.stsb:
                    out[task] = self.stsb["stsb_test"].spearman
            elif any(y.year == year for y in self.years):
                out[task] = self.year(year).pooled_spearman
        out["mean"] = _mean(out.values())
        return out

    def caption_sets(self) -> dict[str, DatasetResult]:
        """The caption sub-datasets that are present: MSRvid 2012, images 2014, images 2015."""
        out: dict[str, DatasetResult] = {}
        for year, name in CAPTION_SETS:
            for result in self.years:
                if result.year == year and any(d.name == name for d in result.datasets):
                    out[f"{name} {year}"] = result.dataset(name)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "protocol": PROTOCOL,
            "years": {str(y.year): y.to_dict() for y in self.years},
            "missing_years": list(self.missing_years),
            "mean_pearson": _json_number(self.mean_pearson),
            "mean_pooled_spearman": _json_number(self.mean_pooled_spearman),
            "all_datasets_mean_pearson": _json_number(self.all_datasets_mean_pearson),
            "captions": {key: r.to_dict() for key, r in self.caption_sets().items()},
            "mteb": {key: _json_number(value) for key, value in self.mteb_scores().items()},
            "stsb": {key: r.to_dict() for key, r in self.stsb.items()},
            "seconds": round(self.seconds, 3),
        }

    def markdown(self, digits: int = 1) -> str:
        """Markdown tables (×100): per sub-dataset with year means and pooled figures, a Table-8-style summary,
        and STS-B (Table 9) with and without the STS2017 pairs."""
        f = functools.partial(_fmt, digits=digits)
        title = f" — {self.label}" if self.label else ""
        out: list[str] = []
        if self.years:
            out += [f"### STS 2012–2016{title}: correlation × 100 per sub-dataset", "",
                    "| year | sub-dataset | pairs | Pearson | Spearman |", "|---|---|---:|---:|---:|"]
            for y in self.years:
                for d in y.datasets:
                    out.append(f"| {y.year} | {d.name} | {d.n} | {f(d.pearson)} | {f(d.spearman)} |")
                out.append(f"| {y.year} | **mean (papers' protocol)** | {y.n} | **{f(y.mean_pearson)}** | "
                           f"{f(y.mean_spearman)} |")
                out.append(f"| {y.year} | **pooled (all pairs)** | {y.n} | {f(y.pooled_pearson)} | "
                           f"**{f(y.pooled_spearman)}** |")
                if y.missing_input:
                    out.append(f"| {y.year} | skipped, no input: {', '.join(y.missing_input)} | | | |")
            out += ["", f"### Summary{title}: × 100 per year", ""]
            header = [str(y.year) for y in self.years] + ["mean"]
            out += ["| protocol | " + " | ".join(header) + " |", "|---|" + "---:|" * len(header)]
            rows = [("Pearson, mean of sub-datasets (papers)", [y.mean_pearson for y in self.years],
                     self.mean_pearson),
                    ("Spearman, pooled (all)", [y.pooled_spearman for y in self.years], self.mean_pooled_spearman)]
            for name, values, mean in rows:
                out.append(f"| {name} | " + " | ".join(f(v) for v in [*values, mean]) + " |")
        if self.missing_years:
            out += ["", f"Not evaluated (directory absent): {', '.join(map(str, self.missing_years))}."]
        if self.stsb:
            out += ["", f"### STS Benchmark{title}: × 100", "", "| set | pairs | Pearson | Spearman |",
                    "|---|---:|---:|---:|"]
            for key, r in self.stsb.items():
                out.append(f"| {STSB_RESULTS.get(key, key)} | {r.n} | {f(r.pearson)} | {f(r.spearman)} |")
        return "\n".join(out) + "\n"


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{100 * value:.{digits}f}"


def markdown_comparison(reports: Mapping[str, StsReport], digits: int = 1) -> str:
    """One table, one column per report (Pearson × 100 per sub-dataset, year means, pooled Spearman, STS-B)."""
    labels = list(reports)
    rows: list[tuple[str, list[float | None]]] = []
    keys: list[tuple[int, str]] = []
    for report in reports.values():
        for y in report.years:
            keys += [(y.year, d.name) for d in y.datasets if (y.year, d.name) not in keys]
    years = sorted({year for year, _ in keys})

    def get(report: StsReport, year: int, name: str | None, what: str) -> float | None:
        try:
            result = report.year(year)
            if name is not None:
                return getattr(result.dataset(name), what)
            return getattr(result, what)
        except KeyError:
            return None

    for year in years:
        for _, name in (k for k in keys if k[0] == year):
            rows.append((f"{year} {name}", [get(r, year, name, "pearson") for r in reports.values()]))
        rows.append((f"**{year} mean Pearson**", [get(r, year, None, "mean_pearson") for r in reports.values()]))
    rows.append(("**mean over years, Pearson**", [r.mean_pearson if r.years else None for r in reports.values()]))
    for year in years:
        rows.append((f"{year} pooled Spearman", [get(r, year, None, "pooled_spearman") for r in reports.values()]))
    rows.append(("**mean over years, pooled Spearman**",
                 [r.mean_pooled_spearman if r.years else None for r in reports.values()]))
    stsb_keys = [k for k in STSB_RESULTS if any(k in r.stsb for r in reports.values())]
    for key in stsb_keys:
        rows.append((f"{STSB_RESULTS[key]}, Pearson",
                     [r.stsb[key].pearson if key in r.stsb else None for r in reports.values()]))
    out = ["| × 100 | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    out += [f"| {name} | " + " | ".join(_fmt(v, digits) for v in values) + " |" for name, values in rows]
    return "\n".join(out) + "\n"


def markdown_protocols(reports: Mapping[str, StsReport], speeds: Mapping[str, float] | None = None,
                       digits: int = 1) -> str:
    """Both protocols in one table, one column per report: MTEB (cosine Spearman × 100 on STS12–16 pooled and
    STS-B test, and their mean) above the papers' (mean Pearson × 100 of a year's sub-datasets; STS-B test
    Pearson); ``speeds``: sentences/s per report label, as a last row."""
    labels = list(reports)
    tasks = [task for task in MTEB_TASKS if any(task in r.mteb_scores() for r in reports.values())]
    rows: list[tuple[str, list[str]]] = []
    for task in [*tasks, "mean"]:
        name = f"**MTEB mean ({len(tasks)} tasks)**" if task == "mean" else f"MTEB {task}: Spearman"
        rows.append((name, [_fmt(r.mteb_scores().get(task), digits) for r in reports.values()]))
    years = sorted({y.year for r in reports.values() for y in r.years})
    for year in years:
        rows.append((f"papers STS{year % 100}: mean Pearson of sub-datasets",
                     [_fmt(r.year(year).mean_pearson if any(y.year == year for y in r.years) else None, digits)
                      for r in reports.values()]))
    if any("stsb_test" in r.stsb for r in reports.values()):
        rows.append(("papers STS-B test: Pearson",
                     [_fmt(r.stsb["stsb_test"].pearson if "stsb_test" in r.stsb else None, digits)
                      for r in reports.values()]))
    if speeds:
        rows.append(("sentences/s (1 CPU thread)",
                     [f"{speeds[label]:,.0f}" if label in speeds else "–" for label in labels]))
    out = ["| × 100 | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    out += [f"| {name} | " + " | ".join(values) + " |" for name, values in rows]
    return "\n".join(out) + "\n"
