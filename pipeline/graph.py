"""The corpus pipeline as one Beam graph: :func:`build_pipeline` checks what the launcher can check, then adds
every stage (ingest -> pre-filter and dedup -> back-translation -> pair records -> score and select -> Parquet
shards, plus the optional lexicon branch) to a Beam pipeline. :mod:`pipeline.run` runs it and writes the summary.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import apache_beam as beam
import pyarrow as pa
import pyarrow.compute as arrow_compute
from apache_beam.io.filesystems import FileSystems

from configs.schema import LexiconConfig, ParaNMTConfig
from core import pair_schema as S
from filters.decontaminate import ExcludedSentences
from filters.plugins import build_scores
from filters.rules import check_select_columns
from pipeline import progress
from pipeline.analysis.lexicon_transforms import BuildLexicon
from pipeline.backtranslate import BackTranslateRows, TranslationCache, checked_model_id
from pipeline.dedup import Dedup
from pipeline.ingest import Ingest
from pipeline.input_plan import InputSpec, ReadPlan
from pipeline.options import runner_of
from pipeline.pair_records import PairRecords
from pipeline.prefilter import FIT_TAG, PrefilterRows, prefilter_rules
from pipeline.records import BATCH_ROWS, REJECTED_TAG
from pipeline.run_folder import LEXICON_DIR, claim_output, code_version
from pipeline.score_transforms import ScoreAndSelect
from pipeline.scorer_fit import FitScorer, plan_scorer
from pipeline.write import DEADLETTER_SCHEMA, REJECTED_SCHEMA, WriteParquetShards

if TYPE_CHECKING:  # Beam's RunInference imports torch: pipeline.nmt_inference loads when a run translates
    from pipeline.nmt_inference import HandlerOptions

log = logging.getLogger(__name__)


def _kept_rows(batch: pa.Table) -> Iterator[pa.Table]:
    kept = batch.filter(arrow_compute.fill_null(batch[S.KEEP], False))
    if kept.num_rows:
        yield kept


#: Rows a dedup bucket is sized for: one worker holds a bucket (about 0.5 KB of Arrow per row).
DEDUP_BUCKET_ROWS = 50_000


#: Rows of one output shard above which the launcher warns: a shard is sorted and written by one worker.
SHARD_ROWS_WARNING = 2_000_000


def dedup_buckets(plan: ReadPlan) -> int:
    """Buckets of global dedup: enough for about :data:`DEDUP_BUCKET_ROWS` rows each however the input is split,
    at least 16."""
    return max(16, -(-plan.expected_rows // DEDUP_BUCKET_ROWS))


#: Input pairs per shard of the lexicon table when ``lexicon.num_shards`` is not set: the worker that merges and
#: writes a shard holds ~1.2M word pairs (~20 MB of counts) at any input size (docs/scaling.md).
LEXICON_SHARD_PAIRS = 25_000


def lexicon_shards(plan: ReadPlan, lexicon: LexiconConfig) -> int:
    """Shards of the lexicon table: ``lexicon.num_shards``, else one per :data:`LEXICON_SHARD_PAIRS` input rows."""
    return lexicon.num_shards or max(1, -(-plan.expected_rows // LEXICON_SHARD_PAIRS))


def _check_sizes(plan: ReadPlan, num_shards: int) -> None:
    rows = plan.expected_rows
    if rows > num_shards * SHARD_ROWS_WARNING:
        log.warning("%d input rows in %d shards: each shard of pairs/ (up to %d rows) is sorted and written "
                    "in the memory of one worker; pass --num-shards %d or more", rows, num_shards,
                    -(-rows // num_shards), -(-rows // SHARD_ROWS_WARNING))


@dataclass
class BuiltPipeline:
    ingest: Ingest
    staging: str
    scored: bool
    mode: str
    nmt_model_id: str
    metadata: dict[str, Any]
    excluded: ExcludedSentences | None = None  # the evaluation sentences kept out of train/, if any


def build_pipeline(
    p: beam.Pipeline,
    config: ParaNMTConfig,
    specs: Sequence[InputSpec],
    output: str,
    *,
    nmt_model_id: str | None = None,
    code: str | None = None,
    handler_kwargs: HandlerOptions | None = None,
    overwrite: bool = False,
) -> BuiltPipeline:
    """Add every stage to ``p``, writing into ``<output>/_staging``. Everything the launcher can check -- inputs,
    the model, every rule and score the config names with its parameters, evaluation files -- is checked here,
    before any work."""
    pc = config.pipeline
    ingest = Ingest(specs, pc)  # plans the reads: misaligned pair files fail here
    _check_sizes(ingest.plan, pc.num_shards)
    mode = "mt_column" if ingest.plan.has_mt else "translate"
    staging = FileSystems.join(output, "_staging")
    local = runner_of(p.options) in progress.LOCAL_RUNNERS
    if nmt_model_id is None:
        nmt_model_id = pc.mt_model_id if mode == "mt_column" else checked_model_id(config.translate, local=local)
    rules = prefilter_rules(config)
    scores = build_scores(config.filter.scores) if pc.score else []
    excluded = None
    if pc.score:
        if config.filter.exclude_sentences:
            excluded = ExcludedSentences.load(config.filter.exclude_sentences)  # read once, before any work
        check_select_columns(config.filter, scores, excluded)
    claim_output(output, config, specs, overwrite=overwrite)  # everything checkable was checked
    scorer = plan_scorer(config, ingest.plan, specs, output, local=local) if pc.score else None
    metadata = {
        "config": config.model_dump(mode="json"),
        "code_version": code if code is not None else code_version(),
        "nmt_model_id": nmt_model_id,
        "inputs": [s.to_dict() for s in specs],
        "mode": mode,
        "scored": scorer is not None,
    }

    read = p | "Ingest" >> ingest
    kept = read["rows"] | "Prefilter" >> beam.ParDo(PrefilterRows(
        rules, scorer.fit_sample if scorer is not None else 0, ("torch",) if scorer is not None else (),
    )).with_outputs(REJECTED_TAG, FIT_TAG, main="rows")
    select, fitted = None, None
    if scorer is not None:
        fitted = (kept[FIT_TAG] | "FitScorer" >> FitScorer(scorer)) if scorer.scorer_id is None else None
        select = ScoreAndSelect(scorer.path, config.filter, config.seed, scorer_id=scorer.scorer_id, fitted=fitted,
                                scores=scores, excluded=excluded)
    unique = kept.rows | "Dedup" >> Dedup(config.prefilter.dedup, dedup_buckets(ingest.plan))
    rejected = [kept[REJECTED_TAG], unique[REJECTED_TAG]]

    if mode == "translate":
        cache = _translation_cache(config, output, nmt_model_id) if pc.translation_cache else None
        translated = unique["rows"] | "Rows" >> beam.FlatMap(pa.Table.to_pylist) | "BackTranslate" >> BackTranslateRows(
            config.translate, nmt_model_id, cache, chunk_lines=pc.cache_chunk_lines,
            **(handler_kwargs or {}))
        rows = translated["rows"] | "Batch" >> beam.BatchElements(min_batch_size=1, max_batch_size=BATCH_ROWS)
        rejected.append(translated[REJECTED_TAG])
    else:
        rows = unique["rows"]  # the given translation: PairRecords fills hit_length_cap (null) and the model id

    pairs = rows | "PairRecords" >> beam.ParDo(PairRecords(nmt_model_id)).with_outputs(REJECTED_TAG, main="pairs")
    rejected.append(pairs[REJECTED_TAG])
    scored = pairs.pairs
    if select is not None:
        scored = scored | "ScoreAndSelect" >> select

    late = (fitted | "ScorerIdMetadata" >> beam.Map(_scorer_id_metadata)) if fitted is not None else None
    pairs_schema = S.with_metadata(pa.schema([*S.PAIRS_SCHEMA, *(f for score in scores for f in score.fields)]),
                                   **metadata, **(select.metadata if select is not None else {}))
    _write_outputs(config, staging, metadata, pairs_schema, scored, rejected, read["deadletter"],
                   selected=select is not None, late_metadata=late,
                   lexicon_shards=lexicon_shards(ingest.plan, config.lexicon))
    return BuiltPipeline(ingest, staging, select is not None, mode, nmt_model_id, metadata, excluded)


def _scorer_id_metadata(scorer_id: str) -> dict[str, str]:
    return {"scorer_id": scorer_id}


def _translation_cache(config: ParaNMTConfig, output: str, nmt_model_id: str) -> TranslationCache:
    """The cache of finished chunks, keyed by the model and every setting that changes a translation."""
    t = config.translate
    # A vocabulary map changes translations: its bytes (not its path) are part of the key. The bucket budget
    # changes a batch's composition, hence CTranslate2's rounding; so can the cores that share a batch
    # (intra_threads, float32), but not how many batches run at once (docs/translate-cpu.md).
    vmap = None
    if t.vmap is not None:
        with FileSystems.open(str(t.vmap)) as handle:
            vmap = hashlib.sha256(handle.read()).hexdigest()[:16]
    settings = tuple(sorted({"beam_size": t.beam_size, "nbest": t.nbest, "backend": t.backend,
                             "compute_type": t.compute_type, "max_source_tokens": t.max_source_tokens,
                             "max_decoding_length": t.max_decoding_length, "max_batch_tokens": t.max_batch_tokens,
                             "max_batch_sentences": t.max_batch_sentences, "intra_threads": t.intra_threads,
                             "vmap": vmap}.items()))
    return TranslationCache(config.pipeline.cache_dir or FileSystems.join(output, "cache"), nmt_model_id, settings)


def _write_outputs(config: ParaNMTConfig, staging: str, metadata: dict[str, Any], pairs_schema: pa.Schema,
                   scored: beam.PCollection, rejected: list[beam.PCollection], deadletter: beam.PCollection, *,
                   selected: bool, late_metadata: beam.PCollection | None, lexicon_shards: int) -> None:
    """Stage 7 (and the lexicon branch): every output folder as deterministic shards under ``staging``."""
    pc = config.pipeline
    shards = {"num_shards": pc.num_shards, "row_group_rows": pc.row_group_rows, "compression": pc.compression,
              "compression_level": pc.compression_level}
    _ = scored | "WritePairs" >> WriteParquetShards(FileSystems.join(staging, "pairs"), "pairs", pairs_schema,
                                                    late_metadata=late_metadata, **shards)
    if selected:
        _ = (scored
             | "Selected" >> beam.FlatMap(_kept_rows)
             | "WriteTrain" >> WriteParquetShards(FileSystems.join(staging, "train"), "train", pairs_schema,
                                                  late_metadata=late_metadata, **shards))
    _ = (tuple(rejected)
         | "AllRejected" >> beam.Flatten()
         | "WriteRejected" >> WriteParquetShards(FileSystems.join(staging, "rejected"), "rejected",
                                                 S.with_metadata(REJECTED_SCHEMA, **metadata), **shards))
    if config.lexicon.enabled:  # Appendix A.1: the PMI paraphrase lexicon over the scored pairs
        _ = scored | "Lexicon" >> BuildLexicon(config.lexicon, FileSystems.join(staging, LEXICON_DIR), metadata,
                                                   tables=True, num_shards=lexicon_shards)
    _ = deadletter | "WriteDeadletter" >> WriteParquetShards(
        FileSystems.join(staging, "deadletter"), "deadletter", S.with_metadata(DEADLETTER_SCHEMA, **metadata),
        **{**shards, "num_shards": pc.deadletter_shards})
