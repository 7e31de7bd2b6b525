"""The dataset card: ``README.md`` in every finished run folder, a Hugging Face dataset card written with
``huggingface_hub``'s card classes from the run's own records, never typed by hand:

* ``summary.json`` -- every count (read, per stage and reason, by decision), the translator check, the
  decontamination check, the lexicon's counts, the translation kernel, the bitext's files and rows;
* ``definition.json`` -- the run's definition: model, beam, device, compute type, the rules with their values,
  the licence;
* the Parquet metadata of ``pairs/`` -- the code version, the rules as applied, the scorer;
* the translation model's ``model_card.yaml`` -- its name, scores and architecture;
* ``report/report.json`` when ``paranmt report`` has been run on the folder -- Table 1, Table 3 and the plots;
* five example pairs: the first five of ``train/`` (``pairs/`` when nothing was selected) in id order.

Its YAML names the ``configs`` (``train``, the default, then ``pairs`` and ``rejected``, each where it has rows), so
``datasets.load_dataset(<run folder>)`` reads ``train/`` and ``load_dataset(<run folder>, "pairs")`` ``pairs/``.
The same run gives the same bytes (no clock, no absolute path of the run folder); a resumed run's card differs
only in the translation cache's counts. :func:`pipeline.outputs.run_folder.clear_staging` removes the card when a run
starts, so a run that has not finished has none.
"""

from __future__ import annotations

import dataclasses
import json
import posixpath
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from huggingface_hub import DatasetCard, DatasetCardData

from paranmt.core.corpus_card import CITATION, corpus_summary
from paranmt.core.pair_schema import CS, EN, ID, MT, PARAPHRASE_SCORE, read_metadata
from paranmt.core.run_definition import DEFINITION_FILE, read_definition
from paranmt.core.run_layout import (
    CARD_FILE,
    DEADLETTER,
    LEXICON_DIR,
    PAIRS,
    REJECTED,
    REPORT_DIR,
    SUCCESS_FILE,
    SUMMARY_FILE,
    TRAIN,
)
from pipeline.metrics import cache_counts
from pipeline.outputs.run_folder import write_marker
from translate.card import ModelDir, ModelDirError, model_or_default

__all__ = ["EXAMPLES", "REPORT_FILE", "accounting_line", "card_configs", "card_data", "dataset_card", "example_pairs",
           "report_of_run", "size_category", "write_dataset_card"]

EXAMPLES = 5  # example pairs shown
REPORT_FILE = "report.json"  # paranmt report's JSON in <run>/report/
# licences that say nothing: the card then asks the user to set card.license
_UNSET_LICENCES = frozenset({"other", "unknown"})
# What each config holds, in the order the card lists them (the first present is the default).
_CONFIGS = {TRAIN: "the selected pairs (keep = true): the training corpus",
            PAIRS: "every pair that reached scoring, with its scores, fold and decision (`reason`)",
            REJECTED: "the rows dropped before pairing, with the stage and reason"}
# The Hub's size categories, by their upper bound.
_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
          (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"), (1_000_000_000, "100M<n<1B"))
def _read_text(path: str) -> str:
    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
        return handle.read().decode("utf-8")


def _exists(path: str) -> bool:
    return FileSystems.exists(path)


def _shards(output: str, summary: Mapping[str, Any], name: str) -> list[str]:
    """The shards of output ``name`` inside ``output`` (the summary's file names: the folder may have moved)."""
    return [FileSystems.join(output, name, posixpath.basename(p)) for p in summary["shards"].get(name, [])]


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` value for ``rows`` examples."""
    return next((label for bound, label in _SIZES if rows < bound), "n>1B")


def card_configs(summary: Mapping[str, Any]) -> list[str]:
    """The outputs the card names as configs, the default first: those with rows (``datasets`` cannot load a
    split of none)."""
    return [config for config in _CONFIGS if summary.get(config)]


def _selected(summary: Mapping[str, Any]) -> str:
    """Where the size comes from: the default config (``pairs`` when no output has rows)."""
    return next(iter(card_configs(summary)), PAIRS)


def _example_folder(summary: Mapping[str, Any]) -> str | None:
    """Where the example pairs come from: ``train/``, else ``pairs/``; None when neither has a row (a run whose rows
    were all rejected has no pair to show)."""
    return next((folder for folder in (TRAIN, PAIRS) if summary.get(folder)), None)


def card_data(summary: Mapping[str, Any], definition: Mapping[str, Any], *, name: str) -> DatasetCardData:
    """The card's YAML: languages, licence, task, size, title and the ``configs`` over the shards."""
    card_config = definition.get("card", {})
    default = _selected(summary)
    configs = [{"config_name": config, "data_files": [{"split": "train", "path": f"{config}/*.parquet"}],
                **({"default": True} if config == default else {})}
               for config in card_configs(summary)]
    return DatasetCardData(
        language=[EN, CS], license=card_config.get("license", "other"), multilinguality="multilingual",
        task_categories=["sentence-similarity", "text-generation"], task_ids=["semantic-similarity-scoring"],
        annotations_creators=["machine-generated"], language_creators=["found", "machine-generated"],
        source_datasets=["original"], size_categories=[size_category(summary[default])],
        pretty_name=card_config.get("pretty_name") or name, tags=["paraphrase", "back-translation", "paranmt"],
        configs=configs)


def _examples_section(summary: Mapping[str, Any], examples: Sequence[Mapping[str, Any]], rows: str) -> str:
    if not examples:
        return "No pair reached `pairs/`: every row was rejected or dead-lettered (see the counts above)."
    return f"The first {len(examples)} pairs of `{_example_folder(summary)}/` in id order:\n\n{rows}"


def example_pairs(paths: Sequence[str], n: int = EXAMPLES) -> list[dict[str, Any]]:
    """The first ``n`` pairs of the shards in id order: each shard is sorted by id, so they are among its first
    ``n`` rows (a shard's first batch, never the whole output)."""
    firsts = []
    for path in paths:
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
            batch = next(pq.ParquetFile(handle).iter_batches(batch_size=n, columns=[ID, EN, MT, PARAPHRASE_SCORE]),
                         None)
            if batch is not None:
                firsts.append(pa.Table.from_batches([batch]))
    if not firsts:
        return []
    return sorted(pa.concat_tables(firsts).to_pylist(), key=lambda row: row[ID])[:n]


def _parquet_metadata(paths: Sequence[str]) -> dict[str, Any]:
    if not paths:
        return {}
    with FileSystems.open(paths[0], compression_type=CompressionTypes.UNCOMPRESSED) as handle:
        return read_metadata(pq.read_schema(handle))


def _cell(value: Any) -> str:
    """A Markdown table cell: JSON for structures, pipes escaped, one line."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return " ".join(text.replace("|", "\\|").split())


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _model_section(summary: Mapping[str, Any], config: Mapping[str, Any]) -> str:
    translate = config["translate"]
    if summary.get("mode") != "translate":
        return (f"The translations were given in the input's `{MT}` column (model id `{summary.get('nmt_model_id')}`, "
                "`pipeline.mt_model_id`): this run translated nothing.")
    lines = [f"The Czech side was back-translated into English by **{summary.get('nmt_model_id')}**, beam "
             f"{translate['beam_size']}, {translate['nbest']}-best, backend `{translate['backend']}`, device "
             f"`{translate['device']}`, compute type `{translate['compute_type']}` (settings of `translate`)."]
    model = translate.get("model")
    try:
        card = ModelDir(model_or_default(model)).card
    except ModelDirError as error:
        lines.append(f"\nThe model's card could not be read: {error}.")
    else:
        where = "the model bundled with paranmt" if model is None else f"`{model}`"
        lines.append(f"\nThe model's card ({where}, `model_card.yaml`): {card.source_lang} -> {card.target_lang}"
                     + (f"; {card.provenance['architecture']}" if card.provenance.get("architecture") else "") + ".")
        if card.metrics:
            lines.append("\n" + _table(["metric", "value"], sorted(card.metrics.items())))
        if card.provenance.get("evaluation_held_out"):
            lines.append(f"\nHeld-out scores: {card.provenance['evaluation_held_out']}.")
    kernel = summary.get("translation_kernel")
    if kernel:
        lines.append("\nCPU kernel (the run's `translation_kernel`):\n\n"
                     + _table(["", "value"], sorted(kernel.items())))
    else:
        lines.append("\nCPU kernel: not recorded.")
    return "\n".join(lines)


def _rules_section(config: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    prefilter, select, score = config["prefilter"], config["select"], config["score"]
    lines = ["Pre-filter rules (`prefilter.rules`, before translation), in order: "
             + ", ".join(f"`{_cell(rule)}`" for rule in prefilter["rules"])
             + f"; global dedup on the normalised pair: {'on' if prefilter['dedup'] else 'off'}.",
             "",
             _table(["selection setting (`select`)", "value"], sorted(select.items())),
             "",
             f"Scorer: `{metadata.get('scorer_id')}` (settings of `score`: "
             + ", ".join(f"{k} {_cell(v)}" for k, v in sorted(score.items())) + ")."]
    if metadata.get("rules"):
        lines.append("\nRules applied to every pair, in order: "
                     + ", ".join(f"`{_cell(rule)}`" for rule in metadata["rules"]) + ".")
    return "\n".join(lines)


def _decontamination(summary: Mapping[str, Any]) -> str:
    clean = summary.get("decontamination")
    if not clean:
        return "No evaluation sentences were excluded (`select.exclude_sentences` is empty)."
    return (f"{clean['sentences']} evaluation sentences from {len(clean['files'])} files were excluded: "
            f"{clean['pairs_excluded']} pairs held one (decision `eval_overlap`); train/ was read back and "
            f"{clean['train_overlap']} of its {clean['train_pairs_checked']} pairs share a sentence with them.")


def accounting_line(identity: Mapping[str, Any]) -> str:
    """A run's row accounting (``summary.json``'s ``identity``) in one line, as the card and the console summary
    show it: ``read = pairs + rejected + deadletter: 400 = 400 + 0 + 0 -- holds``, or ``-- FAILS:`` and why."""
    verdict = "holds" if identity["holds"] else "FAILS: " + "; ".join(identity["problems"])
    return (f"read = pairs + rejected + deadletter: {identity['read']} = {identity['pairs']} + "
            f"{identity['rejected']} + {identity['deadletter']} -- {verdict}")


def _counts_section(summary: Mapping[str, Any]) -> str:
    stages = _table(["stage", "in", "dropped", "out", "reasons"],
                    [[s["stage"], s["in"], s["dropped"], s["out"],
                      ", ".join(f"{r} {n}" for r, n in s["reasons"].items()) or "-"] for s in summary["stages"]])
    outputs = [["read", summary["read"]], ["pairs", summary["pairs"]],
               ["train", summary["train"] if summary.get("train") is not None else "not written"],
               ["rejected", summary["rejected"]], ["deadletter", summary["deadletter"]]]
    lines = [stages, "", _table(["rows", "count"], outputs)]
    if summary.get("pairs_by_decision"):
        lines += ["", _table(["pairs/ by decision", "count"], list(summary["pairs_by_decision"].items()))]
    lines.append("\n" + accounting_line(summary["identity"]))
    cache = cache_counts(summary.get("metrics", {}))
    if cache is not None:
        lines.append(f"Translation cache: {cache[0]} rows reused, {cache[1]} translated in the run that finished.")
    lexicon = summary.get("lexicon")
    if lexicon:
        lines.append(f"PMI lexicon (`{LEXICON_DIR}/`): {lexicon['used']} of {lexicon['read']} pairs counted, "
                     f"{lexicon['vocabulary']} words, {lexicon['lexicon_rows']} word pairs.")
    return "\n".join(lines)


def _translator_check(summary: Mapping[str, Any]) -> str:
    check = summary.get("translator_check")
    if not check:
        return "Not made: the run translated nothing or did not score its pairs."
    if check["weak"] is None:
        return f"No verdict: {check['note']} ({check['scored']} of {check['pairs']} pairs)."
    verdict = "too weak for this input" if check["weak"] else "up to this input"
    quantiles = ", ".join(f"{k} {v}" for k, v in check["translation_score"].items())
    text = (f"The translator looks **{verdict}**: over {check['scored']} scored pairs of {check['pairs']} (copies "
            f"left out, copy rate {check['copy_rate']}), {check['below_floor']} of the back-translations score "
            f"under {check['floor']} (limit {check['thresholds']['below_floor']}) and {check['no_shared_trigram']} "
            f"share no word trigram with their reference (limit {check['thresholds']['no_shared_trigram']}); "
            f"translation score {quantiles}.")
    return text + (f"\n\n> {check['hint']}" if check.get("hint") else "")


def _report_section(report: Mapping[str, Any] | None) -> str:
    if report is None:
        return ("Not computed yet: `paranmt report --input <this folder>` writes Table 1, Table 3 and the score "
                f"plots into `{REPORT_DIR}/` and adds them here.")
    lines = ["From `paranmt report` on `pairs/` (definitions in "
             f"[{REPORT_DIR}/{REPORT_FILE}]({REPORT_DIR}/{REPORT_FILE})).", "",
             "Table 1 (as in the ParaNMT-50M paper):", "", report["markdown"]["table1"]]
    for corpus, markdown in report["markdown"]["table3"].items():
        lines += ["", f"Table 3 ({corpus}): pairs per paraphrase-score range", "", markdown]
    for corpus in report["corpora"].values():
        lines += [""] + [f"![{key}]({REPORT_DIR}/{file})" for key, file in corpus["plots"].items()]
    return "\n".join(lines)


def _licence(licence: str) -> str:
    if licence in _UNSET_LICENCES:
        return (f"`{licence}`: fill in the licence the bitext's own licence allows (the pairs are its English side "
                "and machine translations of its Czech side) -- set `card.license` in the run's config to a Hub "
                "licence id (e.g. `cc-by-sa-4.0`) before the run, or edit `license:` at the top of this card.")
    return f"`{licence}` (`card.license` of the run's config)."


def dataset_card(summary: Mapping[str, Any], definition: Mapping[str, Any], metadata: Mapping[str, Any],
                 examples: Sequence[Mapping[str, Any]], report: Mapping[str, Any] | None, *,
                 name: str) -> DatasetCard:
    """The card from the run's records (see the module docstring)."""
    config = definition  # the run's settings, less those a rerun may change
    data = card_data(summary, definition, name=name)
    default = _selected(summary)
    named = card_configs(summary)
    configs = _table(["config", "folder", "rows", "what it holds"],
                     [[(c + (" (default)" if c == default else "")) if c in named else "- (no rows: no config)",
                       f"`{c}/`", summary[c], what] for c, what in _CONFIGS.items() if summary.get(c) is not None])
    sources = _table(["source", "kind", "files", "lines", "rows"],
                     [[s["source"], s["kind"], ", ".join(f"`{p}`" for p in s["paths"]),
                       ", ".join(str(n) for n in s.get("lines") or []) or "-", s["rows"]]
                      for s in summary["sources"]])
    example_rows = _table([ID, EN, MT, PARAPHRASE_SCORE],
                          [[e[ID], e[EN], e[MT], round(e[PARAPHRASE_SCORE], 4)
                            if e[PARAPHRASE_SCORE] is not None else "-"] for e in examples])
    body = f"""# {data.pretty_name}

{corpus_summary(summary)} Each pair is an English reference sentence (`{EN}`) and its back-translation (`{MT}`),
scored and selected as in ParaNMT-50M (Wieting & Gimpel, 2018). Made with paranmt
{metadata.get('code_version', 'of an unknown version')}.

## Load it

```python
from datasets import load_dataset
train = load_dataset("path/to/this/folder")           # the `{default}` config, or a Hub dataset id
pairs = load_dataset("path/to/this/folder", "pairs")  # every pair with its scores and decision
```

{configs}

`{DEADLETTER}/` ({summary['deadletter']} rows) holds the input records that could not be decoded, each with its
reason; it is not a config.

## How it was made

### The bitext

{sources}

### Translation

{_model_section(summary, config)}

### Rules and selection

{_rules_section(config, metadata)}

Seed {config['seed']}.

### Decontamination

{_decontamination(summary)}

## Counts

{_counts_section(summary)}

## Translator check

{_translator_check(summary)}

## Corpus statistics

{_report_section(report)}

## Examples

{_examples_section(summary, examples, example_rows)}

## Licence

{_licence(data.license)}

## Citation

The method is ParaNMT-50M's; cite the paper, and name the tool (paranmt {metadata.get('code_version', '')}):

```bibtex
{CITATION}
```
"""
    return DatasetCard(f"---\n{data.to_yaml()}\n---\n\n{body}")


@dataclasses.dataclass(frozen=True)
class RunReport:
    """Where ``paranmt report`` reads a finished run folder (``pairs``) and writes for its card (``report``)."""

    pairs: Path
    report: Path


def report_of_run(path: Path) -> RunReport | None:
    """A finished run folder's pairs and report folder; None when ``path`` is no finished run (no ``_SUCCESS``)."""
    if not (path / SUCCESS_FILE).is_file():
        return None
    return RunReport(pairs=path / PAIRS, report=path / REPORT_DIR)


def write_dataset_card(output: str) -> str:
    """Write ``<output>/README.md`` from the finished run's records there; returns its path."""
    summary = json.loads(_read_text(FileSystems.join(output, SUMMARY_FILE)))
    definition_path = FileSystems.join(output, DEFINITION_FILE)
    definition = read_definition(_read_text(definition_path), definition_path)
    examples = _example_folder(summary)
    report_path = FileSystems.join(output, REPORT_DIR, REPORT_FILE)
    report = json.loads(_read_text(report_path)) if _exists(report_path) else None
    name = posixpath.basename(output.rstrip("/")) or output
    card = dataset_card(summary, definition, _parquet_metadata(_shards(output, summary, PAIRS)),
                        example_pairs(_shards(output, summary, examples)) if examples else [], report, name=name)
    return write_marker(output, CARD_FILE, str(card))
