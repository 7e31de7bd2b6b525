"""Back-translation, the step :class:`BackTranslate`: row batches (Arrow tables) -> row batches with ``mt`` (or
``translation_*`` rejections), chunks translated by :class:`pipeline.stages.worker_translator.TranslateChunks`, with a
translation cache that makes a killed run cheap to resume. Rows stay in Arrow tables throughout; only the Czech
text of a chunk becomes Python strings, for the Translator and the cache key.

Rows are grouped into **chunks** of ``pipeline.cache_chunk_lines`` consecutive row numbers
(:data:`pipeline.records.ROW`: the row's place in the input, whatever container, compression or sharding holds it),
and a chunk is the unit of translation: the Translator translates one chunk per call, so the batches the Translator
forms depend only on the chunk's rows -- the same pairs give the same chunks, hence the same translations, from a
pair file, a TSV, JSONL or Parquet file, one file or many. The moment a chunk is translated, in the same fused
stage, its translations are written to ``<root>/translations/<model id>/<hash>.parquet`` (id, Czech text,
translation fields; written under a temporary name, then renamed), the hash over the model id, the decoding
settings, the CPU kernel (:func:`translate.cpu_kernel.translation_kernel`) and the chunk's Czech text. A kill loses
only the chunks being translated at that moment (one per worker thread); a rerun finds every finished chunk by its
hash and translates only the rest. Because a chunk translates identically wherever it runs, the resumed run writes
exactly the shards an uninterrupted run writes (CTranslate2's output moves with a batch's composition -- scores and,
with int8 weights, some hypotheses; docs/pipeline.md measures it -- so re-batching the remainder would not).
Metrics: ``translation_cache_hit_rows``, ``translation_cache_miss_rows``.

The device, hence the chunk size and the cache's key, is decided on the workers
(:meth:`TranslationSettings.on_worker`, as the translator decides it there), not on the launcher: GPU workers
behind a launcher without one (Dataflow, a cluster) get the GPU's chunk and key with ``translate.device auto``.
The workers of a run must see the same device.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as arrow_compute
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from configs.schema import BUILTIN_BACKENDS, ParaNMTConfig, PipelineConfig, TranslateConfig
from paranmt.core import pair_schema as S
from paranmt.core.import_path import load_class
from paranmt.core.pair_schema import Reason, Stage
from pipeline.disk_space import OutOfSpaceError
from pipeline.metrics import CACHE_HIT_COUNTER, CACHE_MISS_COUNTER, METRICS_NAMESPACE, TRANSLATED_COUNTER, StageCounter
from pipeline.outputs.run_folder import cache_root, cached_chunk_path
from pipeline.records import REJECTED_TAG, ROW, RejectedRecord, RejectingDoFn, partition, rejection
from pipeline.stages.worker_translator import TranslateChunks, WorkerTranslator
from pipeline.stages.write import write_table
from translate.card import ModelDir, ModelDirError, model_or_default
from translate.cpu_kernel import apply_cpu_kernel, translation_kernel
from translate.ct2_backend import compute_type_for
from translate.loading import check_device, check_libraries, decode_device
from translate.translator import BackendUnavailable, Status, Translation

__all__ = ["CACHE_SCHEMA", "TRANSLATION_SCHEMA", "BackTranslate", "TranslationCache", "TranslationSettings",
           "apply_translations", "cache_chunk", "translation_table"]

log = logging.getLogger(__name__)

#: What the pipeline keeps of a row's :class:`translate.translator.Translation` (a NaN score is null).
TRANSLATION_SCHEMA = pa.schema([("status", pa.string()), ("hypothesis", pa.string()), ("score", pa.float64()),
                                (S.HIT_LENGTH_CAP, pa.bool_()), ("error", pa.string())])
#: A file of the translation cache: a chunk's rows (id, Czech text) with their translations.
CACHE_SCHEMA = pa.schema([(S.ID, pa.string()), (S.CS, pa.string()), *TRANSLATION_SCHEMA])
_TRANSLATION_REASONS = {"empty": Reason.TRANSLATION_EMPTY, "too_long": Reason.TRANSLATION_TOO_LONG,
                        "failed": Reason.TRANSLATION_FAILED}


def translation_table(translations: Sequence[Translation]) -> pa.Table:
    """A chunk's translations as a :data:`TRANSLATION_SCHEMA` table, one row each, in order."""
    return pa.Table.from_arrays([
        pa.array([t.status.value for t in translations], pa.string()),
        pa.array([t.hypothesis for t in translations], pa.string()),
        pa.array([None if t.score is None or math.isnan(t.score) else float(t.score) for t in translations],
                 pa.float64()),
        pa.array([bool(t.hit_length_cap) for t in translations], pa.bool_()),
        pa.array([t.error for t in translations], pa.string()),
    ], schema=TRANSLATION_SCHEMA)


def apply_translations(rows: pa.Table, translations: pa.Table) -> tuple[pa.Table, list[RejectedRecord]]:
    """Rows and their translations (a :data:`TRANSLATION_SCHEMA` table, row for row) -> the translated rows (``mt``
    and ``translation_score`` from the translation, ``hit_length_cap`` added) and a ``translation_*`` rejection for
    each row whose translation is not ``ok``."""
    status = translations.column("status")
    ok = arrow_compute.fill_null(arrow_compute.equal(status, "ok"), False).to_numpy(zero_copy_only=False)
    failed = np.flatnonzero(~ok)
    rejected = []
    if failed.size:  # few: as records, each with the row's raw text
        raw = rows.select([S.ID, S.SOURCE, S.CS, S.EN, S.MT]).take(failed).to_pylist()
        for row, outcome in zip(raw, translations.take(failed).to_pylist(), strict=True):
            reason = _TRANSLATION_REASONS.get(outcome["status"], Reason.TRANSLATION_FAILED)
            rejected.append(rejection(row, Stage.TRANSLATE, reason,
                                      outcome["error"] or f"translation status {outcome['status']}"))
        keep = pa.array(ok)
        rows, translations = rows.filter(keep), translations.filter(keep)
    for name, column in ((S.MT, "hypothesis"), (S.TRANSLATION_SCORE, "score")):
        index = rows.schema.get_field_index(name)
        rows = rows.set_column(index, rows.schema.field(index), translations.column(column))
    return rows.append_column(pa.field(S.HIT_LENGTH_CAP, pa.bool_()), translations.column(S.HIT_LENGTH_CAP)), rejected


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "model"


def cache_chunk(row: int | np.ndarray, lines: int) -> int | np.ndarray:
    """The chunk of a row number (or of each of an array of them): rows ``[k * lines, (k + 1) * lines)`` are
    chunk ``k``."""
    return row // lines


@dataclass(frozen=True)
class TranslationCache:
    """Where translated chunks are cached: ``<root>/translations/<model id>/<hash>.parquet``, the hash over the
    model id, the decoding settings and the chunk's Czech text (rows in row-number order)."""

    root: str
    model_id: str
    settings: tuple[tuple[str, Any], ...]

    @classmethod
    def for_run(cls, translate_config: TranslateConfig, root: str, model_id: str, device: str) -> TranslationCache:
        """The cache of a run's finished chunks decoded on ``device`` ("cpu" or "cuda"), keyed by the model and
        every setting that changes a translation (``compute_type`` as CTranslate2 gets it: auto resolved)."""
        t = translate_config
        # A vocabulary map changes translations: its bytes (not its path) are part of the key. The bucket budget
        # changes a batch's composition, hence CTranslate2's rounding; so can the cores that share a batch
        # (intra_threads, float32), but not how many batches run at once (docs/translate-cpu.md). The budgets are
        # the ones the device decodes with (a default resolved): a changed default or another device is another key.
        vmap = None
        if t.vmap is not None:
            with FileSystems.open(str(t.vmap)) as handle:
                vmap = hashlib.sha256(handle.read()).hexdigest()[:16]
        compute_type = (t.compute_type if t.backend == "fairseq"
                        else compute_type_for(t.compute_type, device, t.cpu_kernel))
        # The CPU kernel as this worker runs it: the portable pin is one key on every x86 CPU, the vendor's fastest
        # one per vendor and ISA, so chunks of two kernels never mix (docs/translate-cpu.md).
        kernel = translation_kernel(t.cpu_kernel, device, t.backend, compute_type)
        settings = tuple(sorted({"beam_size": t.beam_size, "nbest": t.nbest, "backend": t.backend, "device": device,
                                 "compute_type": compute_type,
                                 "kernel": ",".join(f"{k}={v}" for k, v in sorted(kernel.items())),
                                 "max_source_tokens": t.max_source_tokens,
                                 "max_decoding_length": t.max_decoding_length,
                                 "max_batch_tokens": t.batch_tokens(device),
                                 "max_batch_sentences": t.batch_sentences(device), "intra_threads": t.intra_threads,
                                 "vmap": vmap}.items()))
        return cls(root, model_id, settings)

    def path(self, texts: Sequence[str]) -> str:
        digest = hashlib.sha256(json.dumps([self.model_id, list(self.settings)], sort_keys=True).encode())
        for text in texts:
            digest.update(text.encode("utf-8"))
            digest.update(b"\x00")
        return cached_chunk_path(self.root, _safe(self.model_id), digest.hexdigest()[:32])


@dataclass(frozen=True)
class WorkerPlan:
    """What the worker that decodes decides: its device, the chunk that fills the device's batches, the cache key."""

    device: str
    chunk_lines: int
    cache: TranslationCache | None


@dataclass(frozen=True)
class TranslationSettings:
    """The back-translation as the launcher knows it: the configuration, the checked model id and where the cache
    lives (None: no cache). :meth:`on_worker` decides the rest where the translator is loaded."""

    translate: TranslateConfig
    pipeline: PipelineConfig
    model_id: str
    cache_root: str | None

    def on_worker(self, gpu_visible: Callable[[], bool] | None = None) -> WorkerPlan:
        """The plan of this machine: ``translate.device`` as the translator decides it here
        (:func:`translate.loading.decode_device`; ``gpu_visible`` stands in for its look at the machine), then
        ``pipeline.cache_chunk_lines`` and the cache's key for that device."""
        device = decode_device(self.translate.device, self.translate.cpu_kernel, gpu_visible)
        cache = None if self.cache_root is None else \
            TranslationCache.for_run(self.translate, self.cache_root, self.model_id, device)
        return WorkerPlan(device, self.pipeline.translation_chunk(device), cache)


def read_cache(path: str, chunk: pa.Table) -> pa.Table | None:
    """Cached translations (:data:`TRANSLATION_SCHEMA`) of a chunk's rows (sorted by row number), or None if
    absent, unreadable or not for these rows."""
    if not FileSystems.exists(path):
        return None
    try:
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
            cached = pq.read_table(handle)
        czech = cached.column(S.CS)
        translations = cached.select(TRANSLATION_SCHEMA.names).cast(TRANSLATION_SCHEMA)
    except Exception as error:  # a foreign or damaged file: translate again (and overwrite it)
        # one line: Arrow's messages can hold newlines
        log.warning("ignoring unreadable translation cache %s: %s", path, " ".join(str(error).split()))
        return None
    if cached.num_rows != chunk.num_rows or not czech.equals(chunk.column(S.CS)):
        return None
    return translations


def write_cache(path: str, chunk: pa.Table, translations: pa.Table) -> None:
    """Write one chunk's translations atomically (a temporary name, then a rename)."""
    table = pa.Table.from_arrays([chunk.column(S.ID), chunk.column(S.CS), *translations.columns],
                                 schema=CACHE_SCHEMA).combine_chunks()  # one chunk a column: bytes as ever
    tmp = f"{path}.tmp-{uuid.uuid4().hex}"
    write_table(table, tmp, row_group_rows=100_000, compression="zstd", what="a chunk of the translation cache")
    FileSystems.rename([tmp], [path])


class _KeyByChunk(beam.DoFn):
    """A row batch -> ``(chunk, its rows in the batch)`` for every chunk it has rows of (the chunk size of the
    worker's device)."""

    def __init__(self, settings: TranslationSettings):
        self._settings = settings

    def setup(self) -> None:
        self._lines = self._settings.on_worker().chunk_lines

    def process(self, batch: pa.Table) -> Iterator[tuple[int, pa.Table]]:
        yield from partition(batch, cache_chunk(batch.column(ROW).to_numpy(), self._lines))


class _LookupChunk(beam.DoFn):
    """``(chunk, row batches)`` -> ``(rows, translations)`` of a cached chunk; otherwise one ``todo`` element
    ``((cache path, rows), texts)`` to translate (rows in row-number order, so the texts are in a fixed order)."""

    TODO = "todo"

    def __init__(self, settings: TranslationSettings):
        self._settings = settings

    def setup(self) -> None:
        self._cache = self._settings.on_worker().cache
        self._hits = StageCounter(CACHE_HIT_COUNTER)  # watched: the live line counts reused rows as translated
        self._translated = StageCounter(TRANSLATED_COUNTER)

    def process(self, element: tuple[int, Iterable[pa.Table]]) -> Iterator[Any]:
        rows = pa.concat_tables(element[1])
        rows = rows.take(arrow_compute.sort_indices(rows, [(ROW, "ascending")])).combine_chunks()
        texts = rows.column(S.CS).to_pylist()
        path = self._cache.path(texts) if self._cache is not None else None
        cached = read_cache(path, rows) if path is not None else None
        if cached is None:
            yield beam.pvalue.TaggedOutput(self.TODO, ((path, rows), texts))
            return
        self._hits.inc(rows.num_rows)
        self._translated.inc(rows.num_rows)
        yield rows, cached


class _StoreChunk(beam.DoFn):
    """``((cache path, rows), translations)`` -> the chunk written to the cache (when there is one), then
    ``(rows, translations)``. A chunk with a failed translation is not cached: a failure may be the moment's (out
    of memory on a loaded machine), and a rerun must not keep it where an uninterrupted run would have translated
    the sentence. A failed cache write is a warning: the translations go on; but a full disk ends the run at once
    (:class:`~pipeline.disk_space.OutOfSpaceError`), before more translating for outputs that could not be
    written."""

    def setup(self) -> None:
        self._misses = Metrics.counter(METRICS_NAMESPACE, CACHE_MISS_COUNTER)
        self._translated = StageCounter(TRANSLATED_COUNTER)

    def process(self, element: tuple[tuple[str | None, pa.Table], Sequence[Translation]]) -> Iterator[Any]:
        (path, rows), translated = element
        translations = translation_table(translated)
        if path is not None:
            self._misses.inc(rows.num_rows)
            if not arrow_compute.any(arrow_compute.equal(translations.column("status"), Status.FAILED.value)).as_py():
                try:
                    write_cache(path, rows, translations)
                except OutOfSpaceError:  # the outputs would fail next, on the same disk: say so now, once
                    raise
                except Exception as error:  # the cache is an optimisation: never fail the run for it
                    log.warning("could not write translation cache %s: %s", path, error)
        self._translated.inc(rows.num_rows)
        yield rows, translations


class _ApplyTranslation(RejectingDoFn):
    """``(rows, translations)`` -> the translated rows (:func:`apply_translations`) and their rejections."""

    def process(self, element: tuple[pa.Table, pa.Table]) -> Iterator[Any]:
        translated, rejected = apply_translations(*element)
        for record in rejected:
            yield self._reject(record)
        if translated.num_rows:
            yield translated


class BackTranslate(beam.PTransform):
    """The back-translation. Row batches -> row batches with ``mt`` (main, one batch a chunk) and translation
    rejections (``rejected``): chunks of consecutive row numbers (:meth:`TranslationSettings.on_worker`), each looked
    up in the :class:`TranslationCache` (when there is one) and otherwise translated by
    :class:`pipeline.stages.worker_translator.TranslateChunks` and cached at once. Without a cache the chunks are
    translated the same way, so outputs do not depend on whether a cache was used."""

    def __init__(self, settings: TranslationSettings, label: str | None = None):
        super().__init__(label)
        self.settings = settings

    @property
    def model_id(self) -> str:
        return self.settings.model_id

    @classmethod
    def for_run(cls, config: ParaNMTConfig, output: str, *, local: bool) -> BackTranslate:
        """Back-translation for a run, checked on the launcher before any work: the model
        (:func:`checked_model_id`) and, with ``pipeline.translation_cache``, the cache under ``pipeline.cache_dir``
        or ``<output>/cache``."""
        pipeline_config = config.pipeline
        model_id = checked_model_id(config.translate, local=local)
        root = cache_root(pipeline_config, output) if pipeline_config.translation_cache else None
        return cls(TranslationSettings(config.translate, pipeline_config, model_id, root))

    def expand(self, rows: beam.PCollection) -> dict[str, beam.PCollection]:
        settings = self.settings
        looked = (
            rows
            | "KeyByChunk" >> beam.ParDo(_KeyByChunk(settings))
            | "GroupByChunk" >> beam.GroupByKey()
            | "LookupChunk" >> beam.ParDo(_LookupChunk(settings)).with_outputs(_LookupChunk.TODO, main="hits")
        )
        fresh = (
            looked[_LookupChunk.TODO]
            | "TranslateChunks" >> beam.ParDo(TranslateChunks(WorkerTranslator(settings.translate)))
            | "StoreChunk" >> beam.ParDo(_StoreChunk())
        )
        translated = (looked.hits, fresh) | "HitsAndFresh" >> beam.Flatten()
        applied = translated | "Apply" >> beam.ParDo(_ApplyTranslation()).with_outputs(
            REJECTED_TAG, main="rows")
        return {"rows": applied.rows, REJECTED_TAG: applied[REJECTED_TAG]}


def checked_model_id(translate_config: TranslateConfig, *, local: bool) -> str:
    """The NMT model id (the card's name; of the bundled default model when ``translate.model`` is None), read once
    on the launcher. Fails before any work when the model cannot serve: no directory, no card, a file the card names
    is missing, or the chosen backend has no model in it (:class:`translate.card.ModelDirError`, one line), or, on a
    local runner, ``device: cuda`` where no GPU is visible (:func:`translate.loading.check_device`) or where
    CTranslate2 has no cuBLAS (:func:`translate.loading.check_libraries`). A path
    that does not exist here is accepted for a remote runner (it may exist only inside the worker image): its
    directory name is then the id."""

    if local:  # a remote runner's workers may have the GPU its launcher lacks
        apply_cpu_kernel(translate_config.cpu_kernel)  # a local runner's CTranslate2 loads with the run's kernel
        check_device(translate_config.device, translate_config.cpu_kernel)
    path = model_or_default(translate_config.model)
    try:
        model = ModelDir(path)
    except ModelDirError as error:
        if local or Path(str(path)).exists():
            raise
        log.warning("could not read the model card of %s (%s); using the directory name as model id", path, error)
        return Path(str(path)).name
    backend = translate_config.backend
    if backend not in BUILTIN_BACKENDS:  # a user's backend: importable here, or a local run stops before any work
        try:
            load_class(backend, "translate.backend", BackendUnavailable, "mypackage.backends:MyBackend")
        except BackendUnavailable as error:
            if local:
                raise
            log.warning("%s (a remote runner's workers may have it)", error)
    problem = model.backend_problem(model.auto_backend if backend == "auto" else backend) \
        if backend in BUILTIN_BACKENDS else None
    if problem is not None:
        raise ModelDirError(problem)
    if local:
        check_libraries(translate_config, model)
    return model.model_id
