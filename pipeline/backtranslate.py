"""Stage 4, back-translation: rows -> rows with ``mt`` (or a ``translation_*`` rejection), through
:class:`translate.beam.BackTranslate`, with a translation cache that makes a killed run cheap to resume.

The cache is written **as translation proceeds**: the translations leave RunInference batch by batch, and in the
same fused stage :class:`_StoreCacheParts` writes every ``flush_rows`` of them as one Parquet part file
(``<root>/translations/<model id>/<settings digest>/part-<uuid>-n<rows>.parquet``: id, Czech text and the
translation fields), atomically (written under a temporary name, then renamed). A kill therefore loses at most the
part being filled and the batches in flight on each worker — not the run's finished translation work. A rerun
lists the part files on the launcher, reads them, and joins them to the rows by id (``CoGroupByKey``): a row whose
id has a cached entry for the *same Czech text* is a hit; every other row is translated (and cached). Entries for
ids that are no longer in the input are ignored; an id cached twice (a retried bundle) is used once.

The settings digest covers what changes a translation (beam, n-best, backend, compute type, length limits), so a
cache is never reused across decoding settings; the model id (from the model card) names the folder. Part files of
other settings or models are never read. Metrics: ``translation_cache_hit_rows``, ``translation_cache_miss_rows``,
``translation_cache_parts_written``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from pipeline import progress
from pipeline import schema as S
from pipeline.prefilter import REJECTED_TAG, STAGE_TRANSLATE, rejection
from pipeline.schema import Reason
from pipeline.summary import METRICS_NAMESPACE, list_files, rejected_counter
from pipeline.write import write_table

__all__ = ["CACHE_FIELDS", "BackTranslateRows", "TranslationCache", "apply_translation", "translation_fields"]

log = logging.getLogger(__name__)

CACHE_FIELDS = ("status", "hypothesis", "score", "hit_length_cap", "error")
CACHE_SCHEMA = pa.schema([("id", pa.string()), ("cs", pa.string()), ("status", pa.string()),
                          ("hypothesis", pa.string()), ("score", pa.float64()), ("hit_length_cap", pa.bool_()),
                          ("error", pa.string())])
_TRANSLATION_REASONS = {"empty": Reason.TRANSLATION_EMPTY, "too_long": Reason.TRANSLATION_TOO_LONG,
                        "failed": Reason.TRANSLATION_FAILED}


def translation_fields(translation: Any) -> dict[str, Any]:
    """What the pipeline keeps of a :class:`translate.translator.Translation` (JSON/Parquet friendly)."""
    score = translation.score
    return {"status": translation.status.value, "hypothesis": translation.hypothesis,
            "score": None if score is None or math.isnan(score) else float(score),
            "hit_length_cap": bool(translation.hit_length_cap), "error": translation.error}


def apply_translation(row: dict[str, Any], fields: dict[str, Any],
                      nmt_model_id: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A row and its translation -> ``(row with mt, score, cap flag, model id, None)`` or ``(None, rejection)``."""
    status = fields["status"]
    if status != "ok":
        detail = fields.get("error") or f"translation status {status}"
        return None, rejection(row, STAGE_TRANSLATE, _TRANSLATION_REASONS.get(status, Reason.TRANSLATION_FAILED),
                               detail)
    out = dict(row)
    out[S.MT] = fields["hypothesis"]
    out["mt_score"] = fields["score"]
    out[S.HIT_LENGTH_CAP] = fields["hit_length_cap"]
    out[S.NMT_MODEL_ID] = nmt_model_id
    return out, None


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "model"


@dataclass(frozen=True)
class TranslationCache:
    """Where translations of one model under one set of decoding settings are cached, and how often a part file
    is written (``flush_rows`` translations: the most finished work a kill can lose per worker, besides the batch
    being decoded)."""

    root: str
    model_id: str
    settings: tuple[tuple[str, Any], ...]
    flush_rows: int = 500

    @property
    def directory(self) -> str:
        digest = hashlib.sha256(json.dumps(list(self.settings), sort_keys=True, default=str).encode()).hexdigest()
        return FileSystems.join(self.root, "translations", _safe(self.model_id), digest[:16])

    def part_files(self) -> list[str]:
        """The part files written so far (listed on the launcher, before the pipeline runs)."""
        return list_files(self.directory, "part-*.parquet")

    def new_part_path(self, rows: int) -> str:
        return FileSystems.join(self.directory, f"part-{uuid.uuid4().hex}-n{rows}.parquet")


def read_part(path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(id, {cs, status, hypothesis, ...})`` for every entry of a part file; an unreadable file (torn by a kill
    before the rename could not happen, or foreign) is skipped with a warning: its rows are translated again."""
    try:
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
            table = pq.read_table(handle)
    except Exception as error:
        log.warning("ignoring unreadable translation cache part %s: %s", path, error)
        return
    for entry in table.to_pylist():
        yield entry.pop("id"), entry


def write_part(cache: TranslationCache, rows: Sequence[dict[str, Any]], fields: Sequence[dict[str, Any]]) -> str:
    """Write one part file atomically (a temporary name, then a rename) and return its path."""
    table = pa.Table.from_pylist([{"id": r[S.ID], "cs": r[S.CS], **f} for r, f in zip(rows, fields, strict=True)],
                                 schema=CACHE_SCHEMA)
    path = cache.new_part_path(len(rows))
    tmp = f"{path}.tmp"
    write_table(table, tmp, row_group_rows=100_000, compression="zstd")
    FileSystems.rename([tmp], [path])
    return path


class _MatchCache(beam.DoFn):
    """``(id, {"row": [row], "cached": [entries]})`` -> ``(row, fields)`` for a hit, the row (tagged ``miss``)
    otherwise; ids with cached entries but no row (no longer in the input) give nothing."""

    MISS = "miss"

    def setup(self) -> None:
        self._hits = Metrics.counter(METRICS_NAMESPACE, "translation_cache_hit_rows")

    def process(self, element: tuple[str, dict[str, Iterable[Any]]]) -> Iterator[Any]:
        _, joined = element
        for row in joined["row"]:
            entry = next((e for e in joined["cached"] if e["cs"] == row[S.CS]), None)
            if entry is None:  # counted as a miss where it is translated (_StoreCacheParts)
                yield beam.pvalue.TaggedOutput(self.MISS, row)
            else:
                self._hits.inc()
                progress.count("translated")
                yield row, {k: entry[k] for k in CACHE_FIELDS}


def _to_translate(row: dict[str, Any]) -> tuple[dict[str, Any], str]:
    return row, row[S.CS]


def _with_fields(element: tuple[dict[str, Any], Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    row, translation = element
    return row, translation_fields(translation)


def _key_by_id(row: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return row[S.ID], row


class _StoreCacheParts(beam.DoFn):
    """Batches of ``(row, fields)`` -> a part file each, then the same elements (the translation is never lost to a
    cache problem: a failed write is a warning, and the rows go on)."""

    def __init__(self, cache: TranslationCache | None):
        self._cache = cache

    def setup(self) -> None:
        self._parts = Metrics.counter(METRICS_NAMESPACE, "translation_cache_parts_written")
        self._misses = Metrics.counter(METRICS_NAMESPACE, "translation_cache_miss_rows")

    def process(self, batch: list[tuple[dict[str, Any], dict[str, Any]]]) -> Iterator[tuple[dict, dict]]:
        if self._cache is not None:
            self._misses.inc(len(batch))
            try:
                write_part(self._cache, [r for r, _ in batch], [f for _, f in batch])
                self._parts.inc()
            except Exception as error:  # the cache is an optimisation: never fail the run for it
                log.warning("could not write a translation cache part under %s: %s", self._cache.directory, error)
        progress.count("translated", len(batch))
        yield from batch


class _ApplyTranslation(beam.DoFn):
    def __init__(self, nmt_model_id: str):
        self._model_id = nmt_model_id

    def setup(self) -> None:
        self._rejected = {r: Metrics.counter(METRICS_NAMESPACE, rejected_counter(r))
                          for r in _TRANSLATION_REASONS.values()}

    def process(self, element: tuple[dict[str, Any], dict[str, Any]]) -> Iterator[Any]:
        row, fields = element
        out, rejected = apply_translation(row, fields, self._model_id)
        if rejected is None:
            yield out
        else:
            self._rejected[Reason(rejected[S.REASON])].inc()
            yield beam.pvalue.TaggedOutput(REJECTED_TAG, rejected)


class BackTranslateRows(beam.PTransform):
    """Rows -> rows with ``mt`` (main) and translation rejections (``rejected``), through
    :class:`translate.beam.BackTranslate`; with a :class:`TranslationCache`, translations are cached as they are
    made and rows translated by an earlier (possibly killed) run are read back instead of decoded.

    ``cached_parts``: the part files to read (default: listed from the cache when the transform is built)."""

    def __init__(self, translate_config: Any, nmt_model_id: str, cache: TranslationCache | None = None,
                 label: str | None = None, cached_parts: Sequence[str] | None = None, **handler_kwargs: Any):
        super().__init__(label)
        self._config, self._model_id, self._cache = translate_config, nmt_model_id, cache
        self._parts = list(cached_parts) if cached_parts is not None else (cache.part_files() if cache else [])
        self._handler_kwargs = handler_kwargs

    def _translate(self, rows: beam.PCollection) -> beam.PCollection:
        from translate.beam import BackTranslate

        flush = self._cache.flush_rows if self._cache is not None else 1000
        return (
            rows
            | "Keyed" >> beam.Map(_to_translate)
            | "BackTranslate" >> BackTranslate(self._config, **self._handler_kwargs)
            | "Fields" >> beam.Map(_with_fields)
            | "CacheBatches" >> beam.BatchElements(min_batch_size=flush, max_batch_size=flush)
            | "StoreCacheParts" >> beam.ParDo(_StoreCacheParts(self._cache))
        )

    def expand(self, rows: beam.PCollection) -> dict[str, beam.PCollection]:
        if not self._parts:
            translated = self._translate(rows)
        else:
            log.info("reading %d translation cache parts from %s", len(self._parts), self._cache.directory)
            cached = (rows.pipeline
                      | "CacheParts" >> beam.Create(self._parts)
                      | "ReadCacheParts" >> beam.FlatMap(read_part))
            joined = ({"row": rows | "KeyById" >> beam.Map(_key_by_id), "cached": cached}
                      | "JoinCache" >> beam.CoGroupByKey()
                      | "MatchCache" >> beam.ParDo(_MatchCache()).with_outputs(_MatchCache.MISS, main="hits"))
            fresh = self._translate(joined[_MatchCache.MISS])
            translated = (joined.hits, fresh) | "HitsAndFresh" >> beam.Flatten()
        applied = translated | "Apply" >> beam.ParDo(_ApplyTranslation(self._model_id)).with_outputs(
            REJECTED_TAG, main="rows")
        return {"rows": applied.rows, REJECTED_TAG: applied[REJECTED_TAG]}
