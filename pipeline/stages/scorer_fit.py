"""The scorer fit (the ``score`` section): fit (or load) the PARAGRAM-PHRASE scorer that the selection
(:class:`pipeline.stages.selection.Select`) scores every pair with.

The scorer is fitted on its fit sample (:mod:`filters.fit_sample`: the English tokens of the first
``score.fit_sample`` rows by id that have a decodable, non-empty English side, the same sample ``paranmt score``
draws from the run's ``pairs/`` and ``rejected/``) and saved to
``<output>/scorer/scorer.npz``; every worker loads that one file, so all pairs are scored by the same fitted state.
The fit runs inside the job (:class:`FitScorer`), on the tokens the pre-filter made anyway; only where a remote
worker could not read a file the fit needs (``score.embeddings`` or ``score.word_frequencies`` on the launcher's
disk) does the launcher fit it before the job starts, reading and tokenising those rows itself
(:func:`first_english_sentences`). Both give the same scorer. ``score.scorer`` skips the fitting and uses a saved
scorer instead (the way to share one scorer between runs, or to fit it on a sample of your choice with
``paranmt score --save-scorer``).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import apache_beam as beam
import pyarrow as pa
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from configs.schema import ParaNMTConfig, PipelineConfig, ScoreConfig
from filters.fit_sample import FIT_SAMPLE_SCHEMA, first_rows, fit_candidates, last_id, sample_sentences
from filters.paragram import ParagramScorer, estimated_scorer_bytes
from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import EN, EN_TOKENS, ID
from paranmt.core.run_layout import SCORER_FILE
from paranmt.core.text import TextProcessor
from pipeline.disk_space import room_for
from pipeline.inputs.files import InputError
from pipeline.inputs.plan import InputSpec, ReadPlan
from pipeline.inputs.reading import make_id, read_task
from pipeline.metrics import FITTED_PROGRESS, FITTING_PROGRESS, count_progress, record_size
from pipeline.stages.ingest import decode_record
from pipeline.stages.selection import load_scorer

log = logging.getLogger(__name__)



def first_english_sentences(plan: ReadPlan, specs: Sequence[InputSpec], pipeline_config: PipelineConfig,
                            n: int) -> list[list[str]]:
    """The fit sample read on the launcher: Moses tokens of the first ``n`` decodable, non-empty English references
    by id (:mod:`filters.fit_sample`). Tasks are read in the order of their first id, until no later task can
    change the sample."""
    text = TextProcessor(("en",))
    sample = FIT_SAMPLE_SCHEMA.empty_table()
    for task in sorted(plan.tasks, key=lambda t: make_id(t["source"], t["first"])):
        if sample.num_rows >= n and make_id(task["source"], task["first"]) > last_id(sample):
            break
        spec = specs[task["input"]]
        ids: list[str] = []
        tokens: list[list[str]] = []
        for raw in read_task(task, pipeline_config.max_line_bytes, pipeline_config.deadletter_raw_bytes):
            kind, record = decode_record(raw, spec, pipeline_config.max_line_bytes,
                                         pipeline_config.deadletter_raw_bytes)
            if kind == "row" and record[EN]:
                ids.append(record[ID])
                tokens.append(text.tokenize(record[EN], "en"))
        candidates = pa.table({ID: ids, EN_TOKENS: pa.array(tokens, pa.list_(pa.string()))})
        sample = first_rows([sample, fit_candidates(candidates, n)], n)
    return sample_sentences(sample)


@dataclass(frozen=True)
class ScorerChoice:
    """The run's scorer: where it is saved and its id, known on the launcher; or ``fit``, the step that fits it in
    the job (its id then comes as the job runs). ``fitted``: a scorer the launcher fitted, which :meth:`save`
    writes to ``path`` once the run folder is claimed."""

    path: str
    scorer_id: str | None = None
    fit: FitScorer | None = None
    fitted: ParagramScorer | None = None

    @property
    def fit_sample(self) -> int:
        """English sentences the pre-filter hands to the fit: none unless the job fits the scorer."""
        return self.fit.fit_sample if self.fit is not None else 0

    @property
    def file_bytes(self) -> int:
        """About what the scorer adds to the run folder: the file of one fitted here or in the job (0 where its
        size is not cheap to tell); nothing for a saved one."""
        if self.fitted is not None:
            return self.fitted.file_bytes
        return (estimated_scorer_bytes(self.fit.config) or 0) if self.fit is not None else 0

    def save(self) -> None:
        """Write the scorer the launcher fitted (if any) to ``path``."""
        if self.fitted is not None:
            save_scorer(self.fitted, self.path)

    def finished(self, config: ScoreConfig) -> ScorerChoice:
        """After the run folder is claimed (it holds this run's definition, or was emptied for it): the scorer this
        run fitted and saved at ``path`` before, when it is complete (it loads, and its recomputed id is the one
        stored) and was fitted with these settings, as a saved scorer, so nothing is fitted or written again and a
        rerun after a full disk needs no room for a second copy; else this choice unchanged. Fitting is
        deterministic, so the outputs are the bytes a fresh fit gives."""
        if (self.fit is None and self.fitted is None) or not FileSystems.exists(self.path):
            return self
        try:
            scorer = load_scorer(self.path, refresh=True)
        except (ParanmtError, OSError) as error:  # cut short or not a scorer: fitted and written again
            log.warning("fitting the scorer again: %s", str(error).splitlines()[0])
            return self
        params = scorer.params
        same = (params.get("sif_a") == config.sif_a and params.get("remove_components") == config.remove_components
                and params.get("lowercase") == config.lowercase
                and params.get("word_frequencies") == (config.word_frequencies.name if config.word_frequencies
                                                       else None)
                and params.get("fit_sentences", 0) <= config.fit_sample
                and (self.fitted is None or self.fitted.scorer_id == scorer.scorer_id))
        if not same:
            return self
        log.info("reusing the scorer %s this run fitted before (%s)", scorer.scorer_id, self.path)
        return ScorerChoice(self.path, scorer.scorer_id)


def _fits_in_job(score: ScoreConfig, *, local: bool) -> bool:
    # A remote worker cannot read a file on the launcher's disk (score.embeddings / score.word_frequencies).
    return local or (score.embeddings is None and score.word_frequencies is None)


def choose_scorer(config: ParaNMTConfig, plan: ReadPlan, specs: Sequence[InputSpec], output: str, *,
                  local: bool) -> ScorerChoice:
    """The saved scorer named by ``score.scorer``; or one fitted now, to be saved to ``<output>/scorer/scorer.npz``
    (:meth:`ScorerChoice.save`), when the job cannot fit it itself; otherwise that path and the :class:`FitScorer`
    that fills it in the job (after checking that the input has an English sentence to fit on). Nothing is
    written: the launcher chooses the scorer before it claims the run folder."""
    score = config.score
    if score.scorer is not None:
        path = str(score.scorer)
        return ScorerChoice(path, load_scorer(path).scorer_id)
    for key, given in (("embeddings", score.embeddings), ("word_frequencies", score.word_frequencies)):
        if given is not None and not given.exists():  # the job's fit would fail on it, after the claim
            raise InputError(f"score.{key}: {given} does not exist (give an existing file, or leave it unset)")
    path = FileSystems.join(output, SCORER_FILE)
    fit = FitScorer(score, path) if _fits_in_job(score, local=local) else None
    sentences = first_english_sentences(plan, specs, config.pipeline, score.fit_sample if fit is None else 1)
    if not sentences:  # every row is a dead letter or has an empty English side: an input error, not a crash
        inputs = ", ".join(p for spec in specs for p in spec.paths)
        raise InputError(f"no English sentence to fit the paraphrase scorer on: no row of {inputs} has a "
                         "decodable, non-empty English side; check the files and the --en-column, or give a saved "
                         "scorer with --set score.scorer=FILE, or skip scoring with --no-score")
    if fit is not None:
        return ScorerChoice(path, fit=fit)
    fitted = ParagramScorer.from_config(score, sentences)
    return ScorerChoice(path, fitted.scorer_id, fitted=fitted)


def fit_and_save(sentences: list[list[str]], score_config: ScoreConfig, path: str) -> str:
    """Fit the scorer on ``sentences`` (token lists), save it to ``path``; return its id."""
    scorer = ParagramScorer.from_config(score_config, sentences)
    save_scorer(scorer, path)
    return scorer.scorer_id


def save_scorer(scorer: ParagramScorer, path: str) -> None:
    """Save ``scorer`` to ``path``: a local path directly, any other through Beam's FileSystems from a local copy
    (gs://, s3://, ...)."""
    with room_for(path, "the fitted scorer", lambda: scorer.file_bytes):
        _save(scorer, path)
    log.info("saved scorer %s (fitted on %s sentences) to %s", scorer.scorer_id, scorer.params.get("fit_sentences"),
             path)


def _save(scorer: ParagramScorer, path: str) -> None:
    if "://" not in path:
        scorer.save(path)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            local = scorer.save(os.path.join(tmp, "scorer.npz"))
            handle = FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED)
            try:
                with open(local, "rb") as source:
                    while chunk := source.read(1 << 24):
                        handle.write(chunk)
            finally:
                handle.close()


class _FirstSentences(beam.CombineFn):
    """The fit sample (:func:`filters.fit_sample.first_rows`) of the pre-filter's candidate tables: each worker
    keeps only its first ``n`` rows by id."""

    def __init__(self, n: int):
        self._n = n

    def create_accumulator(self) -> pa.Table:
        return FIT_SAMPLE_SCHEMA.empty_table()

    def add_input(self, accumulator: pa.Table, table: pa.Table) -> pa.Table:
        return first_rows([accumulator, table], self._n)

    def merge_accumulators(self, accumulators: Iterable[pa.Table]) -> pa.Table:
        return first_rows(accumulators, self._n)

    def extract_output(self, accumulator: pa.Table) -> pa.Table:
        return accumulator


def _fit_from_table(table: pa.Table, score_config: ScoreConfig, path: str) -> str:
    record_size("fit_sample", table.num_rows, table.nbytes)
    count_progress(FITTING_PROGRESS)
    scorer_id = fit_and_save(sample_sentences(table), score_config, path)
    count_progress(FITTED_PROGRESS)
    return scorer_id


class FitScorer(beam.PTransform):
    """English tokens from the pre-filter (``fit`` output of :class:`pipeline.stages.prefilter.PrefilterRows`) -> one
    element, the id of the scorer fitted on the first ``score.fit_sample`` of them and saved to ``path``.

    The candidates are combined with lifting (each worker keeps only its first ``fit_sample``), so the fit holds
    ``fit_sample`` sentences in memory whatever the input size."""

    def __init__(self, score_config: ScoreConfig, path: str):
        super().__init__()
        self._config, self._path = score_config, path

    @property
    def config(self) -> ScoreConfig:
        return self._config

    @property
    def fit_sample(self) -> int:
        return self._config.fit_sample

    def expand(self, candidates: beam.PCollection) -> beam.PCollection:
        return (candidates
                | "FirstSentences" >> beam.CombineGlobally(_FirstSentences(self._config.fit_sample))
                | "Fit" >> beam.Map(_fit_from_table, self._config, self._path))
