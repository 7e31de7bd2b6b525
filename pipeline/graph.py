"""The corpus pipeline as one Beam graph: :func:`build_pipeline` checks what the launcher can check, then adds
every stage (ingest -> pre-filter and dedup -> back-translation -> pair records -> score and select -> Parquet
shards, plus the optional lexicon branch) to a Beam pipeline. :mod:`pipeline.run` runs it and writes the summary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from core import pair_schema as S
from filters.decontaminate import ExcludedSentences
from pipeline import progress
from pipeline.analysis.lexicon_transforms import BuildLexicon
from pipeline.backtranslate import BackTranslateRows, TranslationCache, check_model, resolve_model_id
from pipeline.ingest import Ingest
from pipeline.input_plan import InputSpec
from pipeline.options import runner_of
from pipeline.prefilter import REJECTED_TAG, Dedup, PairRecords, PrefilterOptions, PrefilterRows
from pipeline.run_folder import LEXICON_DIR, claim_output, code_version, run_identity
from pipeline.scorer_fit import prepare_scorer
from pipeline.scorer_fit import score_and_select as default_score_and_select
from pipeline.write import DEADLETTER_SCHEMA, REJECTED_SCHEMA, WriteParquetShards


def _given_translation(row: dict[str, Any], mt_model_id: str) -> dict[str, Any]:
    return {**row, S.HIT_LENGTH_CAP: None, S.NMT_MODEL_ID: mt_model_id}


def _is_kept(record: dict[str, Any]) -> bool:
    return record.get(S.KEEP) is True


@dataclass
class BuiltPipeline:
    ingest: Ingest
    staging: str
    scored: bool
    mode: str
    nmt_model_id: str
    metadata: dict[str, Any]
    excluded: Any = None  # filters.decontaminate.ExcludedSentences of the selection stage, if any


def build_pipeline(
    p: beam.Pipeline,
    config: Any,
    specs: Sequence[InputSpec],
    output: str,
    *,
    score_and_select: ScoreAndSelect | None = None,
    nmt_model_id: str | None = None,
    code: str | None = None,
    handler_kwargs: dict[str, Any] | None = None,
    overwrite: bool = False,
) -> BuiltPipeline:
    """Add every stage to ``p``, writing into ``<output>/_staging``. Input errors are raised here, before any
    work. ``config`` is a config with a ``pipeline`` section (:func:`configs.load_config`)."""
    pc = config.pipeline
    ingest = Ingest(specs, pc)  # plans the reads: misaligned pair files fail here
    mode = "mt_column" if ingest.plan.has_mt else "translate"
    staging = FileSystems.join(output, "_staging")
    if mode == "translate" and nmt_model_id is None:
        check_model(config.translate, local=runner_of(p.options) in progress.LOCAL_RUNNERS)
    if config.filter.exclude_sentences and pc.score and score_and_select is None:
        ExcludedSentences.load(config.filter.exclude_sentences)  # read (and cached) before any work
    claim_output(output, run_identity(config, specs), overwrite=overwrite)  # everything checkable was checked
    transform = _score_stage(config, score_and_select, ingest, specs, output)
    if nmt_model_id is None:
        nmt_model_id = pc.mt_model_id if mode == "mt_column" else resolve_model_id(config.translate)
    metadata = {
        "config": config.model_dump(mode="json"),
        "code_version": code if code is not None else code_version(),
        "nmt_model_id": nmt_model_id,
        "inputs": [s.to_dict() for s in specs],
        "mode": mode,
        "scored": transform is not None,
    }
    hook_metadata = dict(getattr(transform, "metadata", None) or {})

    read = p | "Ingest" >> ingest
    kept = read["rows"] | "Prefilter" >> beam.ParDo(
        PrefilterRows(PrefilterOptions.from_config(pc, config.translate))).with_outputs(REJECTED_TAG, main="rows")
    unique = kept.rows | "Dedup" >> Dedup(pc.dedup)
    rejected = [kept[REJECTED_TAG], unique[REJECTED_TAG]]

    if mode == "translate":
        cache = _translation_cache(config, output, nmt_model_id) if pc.translation_cache else None
        translated = unique["rows"] | "BackTranslate" >> BackTranslateRows(
            config.translate, nmt_model_id, cache, chunk_lines=pc.cache_chunk_lines, chunk_bytes=pc.cache_chunk_bytes,
            **(handler_kwargs or {}))
        rows = translated["rows"]
        rejected.append(translated[REJECTED_TAG])
    else:
        rows = unique["rows"] | "GivenTranslation" >> beam.Map(_given_translation, nmt_model_id)

    pairs = rows | "PairRecords" >> beam.ParDo(PairRecords(nmt_model_id)).with_outputs(REJECTED_TAG, main="pairs")
    rejected.append(pairs[REJECTED_TAG])
    scored = pairs.pairs
    if transform is not None:
        scored = scored | "ScoreAndSelect" >> transform

    _write_outputs(config, staging, metadata, hook_metadata, scored, rejected, read["deadletter"],
                   selected=transform is not None)
    return BuiltPipeline(ingest, staging, transform is not None, mode, nmt_model_id, metadata,
                         getattr(transform, "excluded", None))


def _score_stage(config: Any, score_and_select: ScoreAndSelect | None, ingest: Ingest, specs: Sequence[InputSpec],
                 output: str) -> beam.PTransform | None:
    """Stage 6 as configured: a caller's transform (or factory), the default one with a scorer fitted on the
    launcher now (an input the fit cannot use fails here, before the NMT model is resolved), or none."""
    if score_and_select is not None:
        return score_and_select(config) if callable(score_and_select) and not isinstance(
            score_and_select, beam.PTransform) else score_and_select
    if not config.pipeline.score:
        return None
    scorer_path, scorer_id = prepare_scorer(config, ingest.plan, specs, output)
    return default_score_and_select(config, scorer_path, scorer_id)


def _translation_cache(config: Any, output: str, nmt_model_id: str) -> TranslationCache:
    """The cache of finished chunks, keyed by the model and every setting that changes a translation."""
    t = config.translate
    settings = tuple(sorted({"beam_size": t.beam_size, "nbest": t.nbest, "backend": t.backend,
                             "compute_type": t.compute_type, "max_source_tokens": t.max_source_tokens,
                             "max_decoding_length": t.max_decoding_length}.items()))
    return TranslationCache(config.pipeline.cache_dir or FileSystems.join(output, "cache"), nmt_model_id, settings)


def _write_outputs(config: Any, staging: str, metadata: dict[str, Any], hook_metadata: dict[str, Any],
                   scored: beam.PCollection, rejected: list[beam.PCollection], deadletter: beam.PCollection, *,
                   selected: bool) -> None:
    """Stage 7 (and the lexicon branch): every output folder as deterministic shards under ``staging``."""
    pc = config.pipeline
    shards = {"num_shards": pc.num_shards, "row_group_rows": pc.row_group_rows, "compression": pc.compression,
              "compression_level": pc.compression_level}
    pairs_schema = S.with_metadata(S.PAIRS_SCHEMA, **metadata, **hook_metadata)
    _ = scored | "WritePairs" >> WriteParquetShards(FileSystems.join(staging, "pairs"), "pairs", pairs_schema,
                                                    **shards)
    if selected:
        _ = (scored
             | "Selected" >> beam.Filter(_is_kept)
             | "WriteTrain" >> WriteParquetShards(FileSystems.join(staging, "train"), "train", pairs_schema,
                                                  **shards))
    _ = (tuple(rejected)
         | "AllRejected" >> beam.Flatten()
         | "WriteRejected" >> WriteParquetShards(FileSystems.join(staging, "rejected"), "rejected",
                                                 S.with_metadata(REJECTED_SCHEMA, **metadata), **shards))
    if config.lexicon.enabled:  # Appendix A.1: the PMI paraphrase lexicon over the scored pairs
        _ = scored | "Lexicon" >> BuildLexicon(config.lexicon, FileSystems.join(staging, LEXICON_DIR), metadata)
    _ = deadletter | "WriteDeadletter" >> WriteParquetShards(
        FileSystems.join(staging, "deadletter"), "deadletter", S.with_metadata(DEADLETTER_SCHEMA, **metadata),
        **{**shards, "num_shards": pc.deadletter_shards})


ScoreAndSelect = beam.PTransform | Callable[[Any], beam.PTransform | None]
