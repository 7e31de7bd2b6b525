"""Summary: counts per stage and per reason, from Beam metrics and, independently, from the written files.

Every DoFn that drops a row increments ``Metrics.counter(METRICS_NAMESPACE, "rejected_<reason>")`` or
``"deadletter_<reason>"``; the decode step counts ``read`` (after ``--limit``); the writers count what they write
(``written_pairs``, ``written_train``, ``written_rejected``, ``written_deadletter``). :func:`build_summary` then
recounts rows per file, per stage and per reason from the Parquet files themselves and checks

    read == pairs + rejected + deadletter

exactly, with ``read`` from the metrics (and from the counting pre-pass when every input is pair files), and the
right-hand side from the files; it also checks that every metric agrees with its recount. :func:`write_summary` is
the run's one ending: it adds the checks that read the files back (translator, decontamination, lexicon), writes
``summary.json`` and, when everything holds, ``_SUCCESS`` and the dataset card (:mod:`pipeline.outputs.dataset_card`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from filters.decontaminate import ExcludedSentences
from paranmt.core.pair_schema import EN_TOKENS, MT_TOKENS, REASON, STAGE, Reason, Stage
from paranmt.core.run_layout import DEADLETTER, LEXICON_DIR, OUTPUTS, PAIRS, REJECTED, SUMMARY_FILE, TRAIN
from pipeline.analysis.lexicon.shards import STATS_FILE
from pipeline.inputs.plan import ReadPlan
from pipeline.metrics import (
    DROPPING_STAGES,
    READ_COUNTER,
    cache_counts,
    deadletter_counter,
    rejected_counter,
    written_counter,
)
from pipeline.outputs.dataset_card import accounting_line, write_dataset_card
from pipeline.outputs.run_folder import write_marker
from pipeline.outputs.translator_check import translator_check


def _open(path: str):
    return FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED)


def _value_counts(paths: list[str], columns: list[str]) -> tuple[int, Counter[tuple[Any, ...]]]:
    rows = 0
    counts: Counter[tuple[Any, ...]] = Counter()
    for path in paths:
        with _open(path) as handle:
            table = pq.read_table(handle, columns=columns)
        rows += table.num_rows
        values = [table.column(c).to_pylist() for c in columns]
        counts.update(zip(*values, strict=True))
    return rows, counts


def file_counts(shards: Mapping[str, list[str]]) -> dict[str, Any]:
    """Rows per output from its Parquet shards (``shards[name]``, an output not written has none): totals, rows
    per shard, and per-stage/per-reason breakdowns."""

    out: dict[str, Any] = {"shards": {}}
    for name in OUTPUTS:
        paths = list(shards.get(name, []))
        out["shards"][name] = paths
        if name in (PAIRS, TRAIN):  # the reason column holds each pair's decision: kept, or why not
            rows, counts = _value_counts(paths, [REASON])
            out[name] = rows if paths or name == PAIRS else None
            out[f"{name}_by_decision"] = {str(k[0]) if k[0] is not None else "unscored": v
                                          for k, v in sorted(counts.items(), key=lambda kv: str(kv[0]))}
        elif name == REJECTED:
            rows, counts = _value_counts(paths, [STAGE, REASON])
            out[name] = rows
            out["rejected_by_stage"] = {}
            for (stage, reason), n in sorted(counts.items()):
                out["rejected_by_stage"].setdefault(stage, {})[reason] = n
        else:
            rows, counts = _value_counts(paths, [REASON])
            out[name] = rows
            out["deadletter_by_reason"] = {k[0]: v for k, v in sorted(counts.items())}
    return out


def decontamination_check(train_paths: list[str], excluded: ExcludedSentences,
                          pairs_by_decision: Mapping[str, int]) -> dict[str, Any]:
    """The proof that ``train/`` holds no evaluation sentence, from the written files: every train shard is read
    back and both sides are looked up in the excluded sentences (vectorised). ``train_overlap`` must be 0."""

    checked = overlap = 0
    for path in train_paths:
        with _open(path) as handle:
            table = pq.read_table(handle, columns=[EN_TOKENS, MT_TOKENS])
        checked += table.num_rows
        overlap += int((excluded.matches(table.column(EN_TOKENS)) | excluded.matches(table.column(MT_TOKENS))).sum())
    return {**excluded.describe(), "pairs_excluded": pairs_by_decision.get(Reason.EVAL_OVERLAP.value, 0),
            "train_pairs_checked": checked, "train_overlap": overlap}


# Runners known to drop counter updates (Beam 2.77's BundleBasedDirectRunner loses those of steps downstream of a
# side input, wholly or for some of a Flatten's branches): with them a counter below the files is a warning.
RUNNERS_DROPPING_COUNTERS = frozenset({"BundleBasedDirectRunner"})


def build_summary(metrics: Mapping[str, int], files: Mapping[str, Any], *, output_dir: str,
                  expected_read: int | None, scored: bool, extra: Mapping[str, Any] | None = None,
                  counters_may_drop: bool = False) -> dict[str, Any]:
    """The summary dict written to ``summary.json``; ``summary["identity"]["holds"]`` is the accounting check.
    ``counters_may_drop`` (a runner of :data:`RUNNERS_DROPPING_COUNTERS`): a counter *below* the recount of the
    files is reported as a warning, not a failure (the identity itself always rests on the files)."""
    read = metrics.get(READ_COUNTER, 0)
    pairs, rejected, dead = files[PAIRS], files[REJECTED], files[DEADLETTER]
    by_stage: dict[str, dict[str, int]] = {Stage.INGEST.value: dict(files["deadletter_by_reason"])}
    for stage, reasons in files["rejected_by_stage"].items():
        by_stage.setdefault(stage, {}).update(reasons)
    stages = []
    remaining = read
    for stage in (*DROPPING_STAGES, *sorted(set(by_stage) - set(DROPPING_STAGES))):
        dropped = sum(by_stage.get(stage, {}).values())
        stages.append({"stage": stage, "in": remaining, "dropped": dropped, "out": remaining - dropped,
                       "reasons": by_stage.get(stage, {})})
        remaining -= dropped

    problems: list[str] = []
    total = pairs + rejected + dead
    if read != total:
        problems.append(f"read {read} (metrics) != pairs {pairs} + rejected {rejected} + deadletter {dead} = "
                        f"{total} (files)")
    if expected_read is not None and expected_read != total:
        problems.append(f"input has {expected_read} rows (counting pre-pass) but the files hold {total}")
    recount = {written_counter(PAIRS): pairs, written_counter(REJECTED): rejected, written_counter(DEADLETTER): dead}
    if files.get(TRAIN) is not None:
        recount[written_counter(TRAIN)] = files[TRAIN]
    for stage, reasons in by_stage.items():
        for reason, n in reasons.items():
            name = deadletter_counter(reason) if stage == Stage.INGEST else rejected_counter(reason)
            recount[name] = recount.get(name, 0) + n
    warnings: list[str] = []
    for name, value in sorted(recount.items()):
        if name not in metrics and value:
            # Some runners drop counters (Beam 2.77's BundleBasedDirectRunner loses those downstream of a side
            # input): the identity above rests on the recount of the files, so a missing counter is a warning.
            warnings.append(f"the runner reported no metric {name}; the files hold {value}")
        elif counters_may_drop and metrics.get(name, 0) < value:
            warnings.append(f"the runner reported {name} = {metrics.get(name, 0)}; the files hold {value} (this "
                            "runner drops some counter updates)")
        elif metrics.get(name, 0) != value:
            problems.append(f"metric {name} = {metrics.get(name, 0)} but the files hold {value}")
    for name, value in metrics.items():
        if (name.startswith(("rejected_", "deadletter_")) and value and name not in recount):
            problems.append(f"metric {name} = {value} but the files hold none")

    summary: dict[str, Any] = {
        "output": output_dir,
        "read": read,
        "expected_read": expected_read,
        "pairs": pairs,
        "train": files.get(TRAIN),
        "rejected": rejected,
        "deadletter": dead,
        "scored": scored,
        "stages": stages,
        "rejected_by_reason": dict(sorted(Counter({r: n for s, rs in files["rejected_by_stage"].items()
                                                   for r, n in rs.items()}).items())),
        "deadletter_by_reason": files["deadletter_by_reason"],
        "pairs_by_decision": files["pairs_by_decision"],
        "identity": {"read": read, "pairs": pairs, "rejected": rejected, "deadletter": dead,
                     "holds": not problems, "problems": problems, "warnings": warnings},
        "metrics": dict(metrics),
        "shards": files["shards"],
    }
    if extra:
        summary.update(extra)
    return summary


def write_summary(output: str, metrics: Mapping[str, int], shards: Mapping[str, list[str]], *, runner: str,
                  plan: ReadPlan, mode: str, nmt_model_id: str, scored: bool, excluded: ExcludedSentences | None,
                  lexicon: bool, translation_kernel: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The run's summary from its metrics and its written shards (``finalize``'s), with the checks that read the
    files back (translator, decontamination, lexicon), written to ``<output>/summary.json``; ``_SUCCESS`` follows
    when ``read = pairs + rejected + deadletter`` and every check holds. Returns the summary."""
    files = file_counts(shards)
    lexicon_stats = _lexicon_stats(output) if lexicon else None
    summary = build_summary(metrics, files, output_dir=output, expected_read=plan.expected_rows, scored=scored,
                            counters_may_drop=runner in RUNNERS_DROPPING_COUNTERS,
                            extra={"mode": mode, "nmt_model_id": nmt_model_id, "runner": runner,
                                   "sources": plan.sources, "notes": plan.notes,
                                   **({"lexicon": lexicon_stats} if lexicon_stats else {}),
                                   **({"translation_kernel": dict(translation_kernel)} if translation_kernel else {})})
    clean = (decontamination_check(files["shards"][TRAIN], excluded, summary["pairs_by_decision"])
             if excluded is not None else None)
    if mode == "translate" and scored:  # read from pairs/: was the translator up to this input?
        summary["translator_check"] = translator_check(files["shards"][PAIRS])
    if clean is not None:
        summary["decontamination"] = clean
        if clean["train_overlap"]:
            summary["identity"]["problems"].append(
                f"train/ holds {clean['train_overlap']} pairs with an evaluation sentence")
            summary["identity"]["holds"] = False
    if lexicon_stats is not None and lexicon_stats["read"] != summary["pairs"]:  # the lexicon sees every pair
        summary["identity"]["problems"].append(f"lexicon read {lexicon_stats['read']} pairs but pairs/ holds "
                                               f"{summary['pairs']}")
        summary["identity"]["holds"] = False
    write_marker(output, SUMMARY_FILE, dumps(summary))
    if summary["identity"]["holds"]:
        write_marker(output)  # _SUCCESS: the outputs are in place and their checks hold
        write_dataset_card(output)  # README.md, from the records just written
    return summary


def _lexicon_stats(output: str) -> dict[str, Any] | None:
    """Rows read / used / skipped by reason of the lexicon branch (its ``stats.json``)."""
    path = FileSystems.join(output, LEXICON_DIR, STATS_FILE)
    if not FileSystems.exists(path):
        return None
    with _open(path) as handle:
        return json.loads(handle.read().decode("utf-8"))["stats"]


def format_table(summary: Mapping[str, Any]) -> str:
    """A plain-text table of the summary for the console."""
    lines = []
    width = 34
    lines.append(f"{'stage':<12}{'in':>10}{'dropped':>10}{'out':>10}  reasons")
    for stage in summary["stages"]:
        reasons = ", ".join(f"{r} {n}" for r, n in stage["reasons"].items()) or "-"
        lines.append(f"{stage['stage']:<12}{stage['in']:>10}{stage['dropped']:>10}{stage['out']:>10}  {reasons}")
    lines.append("-" * (width + 20))
    lines.append(f"{'read':<22}{summary['read']:>12}")
    lines.append(f"{'pairs/':<22}{summary['pairs']:>12}")
    if summary.get("scored"):
        decisions = ", ".join(f"{r} {n}" for r, n in summary["pairs_by_decision"].items()) or "-"
        lines.append(f"{'  by decision':<22}{'':>12}  {decisions}")
    if summary.get("train") is not None:
        lines.append(f"{'train/':<22}{summary['train']:>12}")
    else:
        lines.append(f"{'train/':<22}{'not written':>12}  (no selection: scores and keep are null)")
    lines.append(f"{'rejected/':<22}{summary['rejected']:>12}")
    lines.append(f"{'deadletter/':<22}{summary['deadletter']:>12}")
    cache = cache_counts(summary.get("metrics", {}))
    if cache is not None:
        lines.append(f"{'translation cache':<22}{'':>12}  {cache[0]} rows reused, {cache[1]} translated")
    clean = summary.get("decontamination")
    if clean:
        lines.append(f"{'eval sentences':<22}{clean['sentences']:>12}  from {len(clean['files'])} files: "
                     f"{clean['pairs_excluded']} pairs excluded (eval_overlap); train/ re-read: "
                     f"{clean['train_overlap']} of {clean['train_pairs_checked']} pairs share a sentence")
    lexicon = summary.get("lexicon")
    if lexicon:
        skipped = ", ".join(f"{r} {n}" for r, n in lexicon["skipped"].items() if n) or "-"
        lines.append(f"{'lexicon/':<22}{lexicon['used']:>12}  pairs counted of {lexicon['read']}; skipped: "
                     f"{skipped}; {lexicon['vocabulary']} words, {lexicon['lexicon_rows']} word pairs")
    lines.append(accounting_line(summary["identity"]))
    return "\n".join(lines)


def dumps(summary: Mapping[str, Any]) -> str:
    return json.dumps(summary, indent=2, sort_keys=False, default=str) + "\n"
