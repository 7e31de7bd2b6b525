"""The corpus pipeline as one Beam graph: :func:`check_run` checks what the launcher can check, then
:func:`build_pipeline` adds every stage (ingest -> pre-filter and dedup -> back-translation -> pair records -> score
and select -> Parquet shards, plus the optional lexicon branch) to a Beam pipeline. Neither writes anything:
:mod:`pipeline.job` claims the run folder between the two, runs the job and finalises it;
:mod:`pipeline.outputs.summary` writes the summary.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from configs.schema import ParaNMTConfig
from filters.decontaminate import ExcludedSentences
from filters.plugins import BUILTIN_SCORES, Score, build_scores
from filters.rules import check_select_columns
from paranmt.core.run_layout import LEXICON_DIR, STAGING
from pipeline.analysis.lexicon.transforms import BuildLexicon, lexicon_shards
from pipeline.disk_space import output_bytes, warn_if_short
from pipeline.inputs.plan import InputSpec, ReadPlan
from pipeline.launcher.options import runner_of
from pipeline.launcher.preflight import LOCAL_RUNNERS
from pipeline.metrics import Step
from pipeline.outputs.run_folder import code_version
from pipeline.records import REJECTED_TAG
from pipeline.stages.backtranslate import BackTranslate
from pipeline.stages.dedup import Dedup, dedup_buckets
from pipeline.stages.ingest import DEADLETTER_TAG, Ingest
from pipeline.stages.pair_records import PairRecords
from pipeline.stages.prefilter import FIT_TAG, PrefilterRows
from pipeline.stages.scorer_fit import ScorerChoice, choose_scorer
from pipeline.stages.selection import Select
from pipeline.stages.write import write_run_outputs

if TYPE_CHECKING:
    from pydantic import JsonValue

log = logging.getLogger(__name__)

#: The scores a run's ``select.scores`` names by key: the filters' built-ins and the cosine of a trained paranmt
#: encoder (train_embeddings, a layer above filters/, which cannot name it). Loaded only when a config names it.
RUN_SCORES: dict[str, str] = {**BUILTIN_SCORES, "paranmt_model": "train_embeddings.pair_score:ParanmtModelCosine"}


#: Rows of one output shard above which the launcher warns: a shard is sorted and written by one worker.
SHARD_ROWS_WARNING = 2_000_000

#: Shards above which the launcher warns when there are more shards than input rows (an extra zero in
#: --num-shards): each output writes all its shards, empty ones included.
EMPTY_SHARDS_WARNING = 256


def _check_sizes(plan: ReadPlan, num_shards: int) -> None:
    rows = plan.expected_rows
    if num_shards > max(rows, EMPTY_SHARDS_WARNING):  # every shard is written, empty or not
        log.warning("%d shards for %d input rows: at least %d of each output's shards will be empty files; pass "
                    "--num-shards %d or fewer", num_shards, rows, num_shards - rows, max(rows, 1))
    if rows > num_shards * SHARD_ROWS_WARNING:
        log.warning("%d input rows in %d shards: each shard of pairs/ (up to %d rows) is sorted and written "
                    "in the memory of one worker; pass --num-shards %d or more", rows, num_shards,
                    -(-rows // num_shards), -(-rows // SHARD_ROWS_WARNING))


@dataclass
class CheckedRun:
    """A run checked on the launcher, before any work and before anything is written: its stages, built and
    checked, and what the launcher decided that the written files do not say (read by the summary)."""

    config: ParaNMTConfig
    specs: Sequence[InputSpec]
    output: str
    ingest: Ingest
    prefilter: PrefilterRows
    back_translate: BackTranslate | None  # None: the input carries its translations
    scorer: ScorerChoice | None  # None: the run does not score
    scores: list[Score]
    excluded: ExcludedSentences | None = None  # the evaluation sentences kept out of train/, if any

    @property
    def plan(self) -> ReadPlan:
        return self.ingest.plan

    def with_finished_scorer(self) -> CheckedRun:
        """This run once its folder is claimed: a scorer it already fitted and saved there (a rerun after a kill or
        a full disk) is reused, not fitted again (:meth:`ScorerChoice.finished`)."""
        scorer = self.scorer.finished(self.config.score) if self.scorer is not None else None
        if scorer is self.scorer:
            return self
        return dataclasses.replace(self, scorer=scorer, prefilter=PrefilterRows.for_run(self.config, 0))

    @property
    def scored(self) -> bool:
        return self.scorer is not None

    @property
    def mode(self) -> str:
        return "translate" if self.back_translate is not None else "mt_column"

    @property
    def nmt_model_id(self) -> str:
        return self.back_translate.model_id if self.back_translate is not None else self.config.pipeline.mt_model_id


def check_run(
    p: beam.Pipeline,
    config: ParaNMTConfig,
    specs: Sequence[InputSpec],
    output: str,
) -> CheckedRun:
    """Everything the launcher can check -- inputs, the model, every rule and score the config names with its
    parameters, evaluation files -- checked here, before any work; nothing is written (a scorer the launcher fits
    is saved by :meth:`ScorerChoice.save` once the run folder is claimed)."""
    pipeline_config = config.pipeline
    ingest = Ingest(specs, pipeline_config)  # plans the reads: misaligned pair files fail here
    _check_sizes(ingest.plan, pipeline_config.num_shards)
    local = runner_of(p.options) in LOCAL_RUNNERS
    back_translate = None if ingest.plan.has_mt else BackTranslate.for_run(config, output, local=local)
    scores = build_scores(config.select.scores, RUN_SCORES) if pipeline_config.score else []
    excluded = None
    if pipeline_config.score:
        if config.select.exclude_sentences:
            excluded = ExcludedSentences.load(config.select.exclude_sentences)  # read once, before any work
        check_select_columns(config.select, scores, excluded)
    scorer = choose_scorer(config, ingest.plan, specs, output, local=local) if pipeline_config.score else None
    prefilter = PrefilterRows.for_run(config, scorer.fit_sample if scorer is not None else 0)
    warn_if_short(output, output_bytes(ingest.plan.expected_rows,
                                       3 * pipeline_config.num_shards + pipeline_config.deadletter_shards,
                                       scorer.file_bytes if scorer is not None else 0))
    return CheckedRun(config, specs, output, ingest, prefilter, back_translate, scorer, scores, excluded)


def build_pipeline(p: beam.Pipeline, checked: CheckedRun, defined: dict[str, JsonValue]) -> None:
    """Add every stage of a checked run to ``p``, writing into ``<output>/_staging`` when it runs. ``defined``: the
    run's definition (:func:`pipeline.outputs.run_folder.definition`), which the outputs' metadata records."""
    config, output, scorer = checked.config, checked.output, checked.scorer
    # The outputs record the run's definition (its settings under "config", its inputs, the kernel that translates:
    # the same bytes from every x86 CPU with the portable kernel, which names the pin, not the machine), so a
    # setting a rerun may change (threads, the runner, ...) changes no output byte.
    metadata = {
        "config": {key: value for key, value in defined.items() if key not in ("inputs", "translation_kernel")},
        "code_version": code_version(),
        "nmt_model_id": checked.nmt_model_id,
        "inputs": defined["inputs"],
        "mode": checked.mode,
        "scored": checked.scored,
        "translation_kernel": defined["translation_kernel"],
    }

    read = p | Step.INGEST >> checked.ingest
    kept = read["rows"] | Step.PREFILTER >> beam.ParDo(checked.prefilter).with_outputs(REJECTED_TAG, FIT_TAG,
                                                                                        main="rows")
    select, fitted_id = None, None
    if scorer is not None:
        fitted_id = (kept[FIT_TAG] | Step.FIT_SCORER >> scorer.fit) if scorer.fit is not None else None
        select = Select(scorer.path, config.select, config.seed, scorer_id=scorer.scorer_id,
                                fitted_id=fitted_id, scores=checked.scores, excluded=checked.excluded)
    unique = kept.rows | Step.DEDUP >> Dedup(config.prefilter.dedup, dedup_buckets(checked.plan.expected_rows))
    rejected = [kept[REJECTED_TAG], unique[REJECTED_TAG]]

    if checked.back_translate is not None:
        translated = unique["rows"] | Step.BACK_TRANSLATE >> checked.back_translate
        rows = translated["rows"]
        rejected.append(translated[REJECTED_TAG])
    else:
        rows = unique["rows"]  # the given translation: PairRecords fills hit_length_cap (null) and the model id

    records = PairRecords(checked.nmt_model_id)
    pairs = rows | Step.PAIR_RECORDS >> beam.ParDo(records).with_outputs(REJECTED_TAG, main="pairs")
    rejected.append(pairs[REJECTED_TAG])
    out_pairs = pairs.pairs  # scored and decided when the run scores
    if select is not None:
        out_pairs = out_pairs | Step.SELECT >> select

    if config.lexicon.enabled:  # Appendix A.1: the PMI paraphrase lexicon over the scored pairs
        shards = lexicon_shards(checked.plan.expected_rows, config.lexicon)
        _ = out_pairs | Step.LEXICON >> BuildLexicon(config.lexicon, FileSystems.join(output, STAGING, LEXICON_DIR),
                                                     metadata, num_shards=shards)
    late = (fitted_id | "ScorerIdMetadata" >> beam.Map(_scorer_id_metadata)) if fitted_id is not None else None
    write_run_outputs(output, config.pipeline, metadata, out_pairs, rejected, read[DEADLETTER_TAG],
                      score_fields=[f for score in checked.scores for f in score.fields],
                      select_metadata=select.metadata if select is not None else None, late_metadata=late)


def _scorer_id_metadata(scorer_id: str) -> dict[str, str]:
    return {"scorer_id": scorer_id}
