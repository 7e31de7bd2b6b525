"""What an exported encoder's model card says, from the model's own records, never typed by hand:

* the encoder: its components, output size, parameters (the numbers its saved state holds) and vocabularies;
* the training run (the folder the model was saved in: ``metrics.json``): pairs, updates, settings, the dev
  evaluation that picked the checkpoint, and the training input by what identifies it, not by the trainer's path
  (:attr:`ModelFacts.training_data`) -- when that is a finished run folder's output, also its dataset card's name
  and licence and the corpus in one sentence (:func:`paranmt.core.corpus_card.run_corpus`);
* the STS figures of ``paranmt evaluate --json FILE`` for this model (``--evaluation FILE``): both protocols of
  :mod:`train_embeddings.evaluation.sts.results`, with the sets and pairs, exactly the JSON's numbers;
* the speed on one core: ``paranmt evaluate --speed``'s figure (sentences per second, one pinned thread) when the
  evaluation JSON holds one, else sentences per CPU-second measured here on the bundled sample's English side with
  every thread pool pinned to one thread.

:func:`model_facts` gathers them; :func:`card_section` is the Markdown section both exports add to the card their
library renders (:func:`with_section`); each export fills its library's own card data from the same facts
(``st_export.py``: sentence-transformers' ``SentenceTransformerModelCardData``; ``static_export.py``: model2vec's
``create_model_card`` and huggingface_hub's ``EvalResult``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import configs
from configs.schema import TrainConfig
from paranmt.core.corpus_card import RunCorpus, run_corpus
from paranmt.core.errors import ParanmtError
from train_embeddings.evaluation.sts.baselines import timed_pass
from train_embeddings.evaluation.sts.results import MTEB_TASKS, PROTOCOL, STSB_RESULTS
from train_embeddings.evaluation.thread_pools import cpu_model, pinned
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.model_dir import METRICS_JSON, MODEL_JSON, model_directory

__all__ = ["SPEED_SENTENCES", "ModelFacts", "StsSet", "card_section", "model_facts", "sts_sets", "with_section"]

# Real English sentences every install has (package data): the speed is timed on them, tokenisation included.
SPEED_SENTENCES = Path(configs.__file__).parent / "sample" / "sample.en"
SPEED_WARMUP = 64  # sentences encoded before the clock starts (timed_pass)
_TRAINING_KEYS = ("model", "megabatch", "batch_size", "epochs", "lr", "margin", "negatives", "scramble",
                  "word_vectors", "seed")


class EvaluationFileError(ParanmtError, ValueError):
    """``--evaluation FILE`` is not a ``paranmt evaluate --json`` file with a report of the exported model."""


@dataclass(frozen=True)
class StsSet:
    """One STS set of the evaluation JSON as the card shows it: MTEB's figure (cosine Spearman; pooled for a
    year) and the papers' (a year's mean Pearson over its sub-datasets; STS-B test's Pearson), raw."""

    task: str  # MTEB's name: STS12 ... STS16, STSBenchmark
    label: str
    pairs: int
    spearman: float | None
    pearson: float | None


@dataclass(frozen=True)
class ModelFacts:
    """Everything the card says (see the module docstring); ``None``: that record does not exist."""

    name: str
    checkpoint: str  # the exported model directory, relative to its training run when it has one
    components: list[str]
    dim: int
    parameters: int
    vocabulary: dict[str, int]
    model_json: dict[str, Any]
    metrics: dict[str, Any] | None
    corpus: RunCorpus | None
    evaluation_file: str | None
    sts: dict[str, Any] | None  # the evaluation JSON's report of this model
    speed: float
    speed_how: str

    @property
    def training_data(self) -> str | None:
        """The training input (``metrics.json``'s ``data``) as a reader of the card can know it, never a path of
        the trainer's machine: a finished run folder's output by its path from the run folder (``sample/train``),
        another local input by its name (``para-nmt-50m.txt``), a URL as given."""
        if not self.metrics:
            return None
        data = str(self.metrics["data"])
        if "://" in data:
            return data
        if self.corpus is not None:  # run_corpus resolved the same path to find the run folder
            return Path(data).resolve().relative_to(self.corpus.folder.parent).as_posix()
        return Path(data).name

    def non_default_settings(self) -> dict[str, Any]:
        """The training settings (``metrics.json``'s ``config``) that differ from :class:`TrainConfig`'s defaults."""
        if not self.metrics:
            return {}
        fields = TrainConfig.model_fields
        return {key: value for key, value in self.metrics["config"].items()
                if key in fields and key != "data" and value != _json_default(fields[key].get_default(
                    call_default_factory=True))}


def _json_default(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _vocabulary(model: EmbeddingModel) -> dict[str, int]:
    sizes = {"words": model.words, "character trigrams": model.trigrams, "SentencePiece pieces": model.pieces,
             "teacher tokens": model.static}
    return {name: len(vocab) for name, vocab in sizes.items() if vocab is not None}


def _report(evaluation: Path, label: str) -> tuple[dict[str, Any], float | None]:
    """The report labelled ``label`` in a ``paranmt evaluate --json`` file, and its ``--speed`` figure."""
    try:
        payload = json.loads(evaluation.read_text(encoding="utf-8"))
        reports = payload["reports"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise EvaluationFileError(f"--evaluation {evaluation}: not a `paranmt evaluate --json` file ({error}); "
                                  "write one with paranmt evaluate --model DIR --json FILE") from error
    if label not in reports:
        raise EvaluationFileError(f"--evaluation {evaluation} holds no report of {label!r} (it has "
                                  f"{', '.join(map(repr, reports)) or 'none'}): evaluate the model you export, "
                                  f"paranmt evaluate --model <{label}> --json FILE")
    return reports[label], (payload.get("sentences_per_second") or {}).get(label)


def _measured_speed(model: EmbeddingModel) -> tuple[float, str]:
    sentences = [line for line in SPEED_SENTENCES.read_text(encoding="utf-8").splitlines() if line.strip()]
    with pinned(1):
        n, _, cpu = timed_pass(model.encode, sentences, warmup=SPEED_WARMUP)
    return n / cpu, (f"sentences per CPU-second on one core, measured by `paranmt export`: {n} English sentences "
                     f"of paranmt's bundled sample (`configs/sample/sample.en`, after {SPEED_WARMUP} to warm up) "
                     "encoded from raw text, "
                     f"tokenisation included, every thread pool pinned to one thread, on {cpu_model()}")


def model_facts(model: EmbeddingModel, source: Path | None = None, evaluation: Path | None = None) -> ModelFacts:
    """The card's facts of ``model``, loaded from ``source`` (a model directory or training run; None: the model
    alone), with the STS report of ``evaluation`` (a ``paranmt evaluate --json`` file; its report is the one
    labelled as ``paranmt evaluate --model SOURCE`` labels it: the folder's name)."""
    name = (source.resolve().name if source is not None else "") or "paranmt encoder"
    directory = model_directory(source) if source is not None else None
    run = directory.parent if directory is not None and (directory.parent / METRICS_JSON).is_file() else None
    metrics = json.loads((run / METRICS_JSON).read_text(encoding="utf-8")) if run is not None else None
    model_json = json.loads((directory / MODEL_JSON).read_text(encoding="utf-8")) if directory is not None else {}
    sts, speed = _report(evaluation, name) if evaluation is not None else (None, None)
    if speed is not None:
        speed_how = ("sentences per second on one core (wall clock, every thread pool pinned to one thread, "
                     f"tokenisation included), as `paranmt evaluate --speed` recorded it in `{evaluation.name}`")
    else:
        speed, speed_how = _measured_speed(model)
    state = model.encoder.state_dict()
    return ModelFacts(
        name=name, checkpoint=(f"{directory.name}/ of the training run" if run is not None else "the model directory")
        if directory is not None else "the model", components=list(model.spec.components), dim=model.dim,
        parameters=sum(int(tensor.numel()) for tensor in state.values()), vocabulary=_vocabulary(model),
        model_json=model_json, metrics=metrics, corpus=run_corpus(metrics["data"]) if metrics else None,
        evaluation_file=evaluation.name if evaluation is not None else None, sts=sts, speed=float(speed),
        speed_how=speed_how)


def sts_sets(report: dict[str, Any]) -> list[StsSet]:
    """The sets of an evaluation report in MTEB's order: STS12-16 (pooled; the papers' mean Pearson) and
    STSBenchmark (STS-B test), those present."""
    out = []
    for task, year in MTEB_TASKS.items():
        if year is None:
            test = report["stsb"].get("stsb_test")
            if test is not None:
                out.append(StsSet(task, STSB_RESULTS["stsb_test"], test["n"], test["spearman"], test["pearson"]))
        elif str(year) in report["years"]:
            result = report["years"][str(year)]
            out.append(StsSet(task, f"STS {year} (pooled)", result["n"], result["pooled_spearman"],
                              result["mean_pearson"]))
    return out


def _x100(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(str(v) for v in row) + " |" for row in rows])


def _sts_section(facts: ModelFacts) -> str:
    if facts.sts is None:
        return ("Not evaluated on STS 2012-2016 / STS-B with this export: `paranmt evaluate --model "
                f"<{facts.name}> --json sts.json`, then `paranmt export ... --evaluation sts.json` puts the figures "
                "here.")
    report = facts.sts
    rows = [[s.task, s.label, s.pairs, _x100(s.spearman), _x100(s.pearson)] for s in sts_sets(report)]
    rows.append([f"mean ({len(rows)} tasks)", "", "", _x100(report["mteb"].get("mean")), ""])
    protocol = report.get("protocol", PROTOCOL)
    return "\n".join([
        f"From `{facts.evaluation_file}` (`paranmt evaluate --json`, report `{report['label']}`), × 100:", "",
        _table(["MTEB task", "set", "pairs", "Spearman (MTEB)", "Pearson (papers)"], rows), "",
        f"- MTEB: {protocol['mteb']}.", f"- Papers (ParaNMT-50M Tables 8-9): {protocol['papers']}.",
        f"- Similarity: {protocol['similarity']}."])


def _training_section(facts: ModelFacts) -> str:
    metrics = facts.metrics
    if metrics is None:
        return "No training record (`metrics.json`) beside the exported model."
    corpus = facts.corpus
    lines = [f"Trained by `paranmt train` (ParaNMT-50M §4: margin loss over negatives mined in mega-batches) for "
             f"{metrics['steps']:,} updates ({metrics['epochs_done']} epochs, finished: "
             f"{str(metrics['finished']).lower()}) on {metrics['n_pairs']:,} pairs from `{facts.training_data}`."]
    if corpus is not None:
        lines += ["", f"The training data is the `{corpus.config}` config of the paranmt corpus **{corpus.name}** "
                  f"(its dataset card, licence `{corpus.license}`):", "", f"> {corpus.summary}"]
    else:
        lines += ["", "The training data is not a finished paranmt run folder's output: no dataset card to quote."]
    settings = {key: metrics["config"].get(key) for key in _TRAINING_KEYS}
    lines += ["", _table(["setting (`train`)", "value"], [[f"`{k}`", json.dumps(v)] for k, v in settings.items()])]
    best = facts.model_json.get("best") or metrics.get("best")
    if best:
        what = PROTOCOL["sts2017"] if best["metric"] == "dev" else best["metric"]
        lines += ["", f"Checkpoint selection: the best of {len(metrics['evaluations'])} dev evaluations, "
                  f"`{best['metric']}` = {best['score']:.4f} (Pearson's r on {what}) at update {best['step']}."]
    return "\n".join(lines)


def card_section(facts: ModelFacts, load: str) -> str:
    """The project's section of the card: ``load`` is the Python that loads the exported folder."""
    vocabulary = ", ".join(f"{n:,} {name}" for name, n in facts.vocabulary.items()) or "none"
    return f"""## paranmt encoder

A paraphrastic sentence encoder trained by paranmt the way of
[ParaNMT-50M](https://aclanthology.org/P18-1042) (Wieting & Gimpel, 2018), exported by `paranmt export` from
{facts.checkpoint}.

### Load it

```python
{load}
```

### Encoder

{_table(["", "value"], [["components", "+".join(facts.components)], ["output dimensions", facts.dim],
                        ["parameters", f"{facts.parameters:,}"], ["vocabulary", vocabulary],
                        ["trained updates", facts.model_json.get("trained_steps", "–")]])}

### Speed

{facts.speed:,.0f} {facts.speed_how}.

### STS evaluation

{_sts_section(facts)}

### Training

{_training_section(facts)}
"""


def with_section(rendered: str, section: str) -> str:
    """The card a library rendered with the project's ``section`` before its first ``## `` section (at the end
    when it has none): the libraries' templates have no place for it, their YAML and text stay as rendered."""
    at = rendered.find("\n## ")
    if at < 0:
        return rendered.rstrip("\n") + "\n\n" + section
    return rendered[:at + 1] + section + "\n" + rendered[at + 1:]
