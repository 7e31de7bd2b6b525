"""Score pairs: trigram overlap and PARAGRAM-PHRASE paraphrase score on a pairs table (ParaNMT-50M §3, §5.4).

:func:`score_pairs` adds (or overwrites) ``trigram_overlap``, ``paraphrase_score``, ``no_known_words`` and
``scorer_id`` (types from :data:`paranmt.core.pair_schema.PAIRS_SCHEMA`) on one Arrow table; every other column, the
translation score included, is carried unchanged. :func:`score_parquet` does it for Parquet files, batch by
batch, into one Parquet file whose schema metadata records the scorer id and parameters (``paranmt score`` is this
function behind a command line). :func:`fit_sample_from_parquet` draws the sentences a scorer is fitted on
(:mod:`filters.fit_sample`).
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from filters.fit_sample import first_rows, fit_candidates, last_id, sample_sentences
from filters.paragram import ParagramScorer
from filters.trigram import trigram_overlap_encoded
from paranmt.core.pair_schema import (
    EN,
    EN_TOKENS,
    ID,
    MT_TOKENS,
    NO_KNOWN_WORDS,
    PAIRS_SCHEMA,
    PARAPHRASE_SCORE,
    SCORER_ID,
    TRIGRAM_OVERLAP,
    check_schema,
    with_metadata,
)
from paranmt.core.parquet_inputs import ParquetInput
from paranmt.core.text import TextProcessor
from paranmt.core.token_arrays import encode_tokens

__all__ = ["SCORE_COLUMNS", "ScoredFile", "fit_sample_from_parquet", "score_pairs", "score_parquet", "scored_schema"]

SCORE_COLUMNS = (TRIGRAM_OVERLAP, PARAPHRASE_SCORE, NO_KNOWN_WORDS, SCORER_ID)


def score_pairs(table: pa.Table, scorer: ParagramScorer) -> pa.Table:
    """``table`` with the four score columns added, or overwritten in place where present.

    Needs ``en_tokens`` and ``mt_tokens`` (list<string> Moses tokens). Both scores share one dictionary encoding
    of the batch. A null or empty token list scores 0.0 on both and sets ``no_known_words``.
    """
    check_schema(table.schema, required=(EN_TOKENS, MT_TOKENS))
    encoded = encode_tokens(table[EN_TOKENS], table[MT_TOKENS])
    overlap = trigram_overlap_encoded(encoded)
    paraphrase, no_known = scorer.score_encoded(encoded)
    values = {
        TRIGRAM_OVERLAP: pa.array(overlap, pa.float32()),
        PARAPHRASE_SCORE: pa.array(paraphrase, pa.float32()),
        NO_KNOWN_WORDS: pa.array(no_known, pa.bool_()),
        SCORER_ID: pa.repeat(pa.scalar(scorer.scorer_id, pa.string()), table.num_rows),
    }
    for name, column in values.items():
        field = PAIRS_SCHEMA.field(name)
        index = table.schema.get_field_index(name)
        table = table.set_column(index, field, column) if index >= 0 else table.append_column(field, column)
    return table


def scored_schema(schema: pa.Schema) -> pa.Schema:
    """The schema :func:`score_pairs` gives a table of ``schema`` (score fields replaced in place or appended)."""
    for name in SCORE_COLUMNS:
        field = PAIRS_SCHEMA.field(name)
        index = schema.get_field_index(name)
        schema = schema.set(index, field) if index >= 0 else schema.append(field)
    return schema


def fit_sample_from_parquet(pairs: ParquetInput, sentences: int, *, rejected: ParquetInput | None = None,
                            batch_rows: int = 65536) -> list[list[str]]:
    """The fit sample (:mod:`filters.fit_sample`) of ``pairs``: token lists of the first ``sentences`` rows by id
    with English tokens. ``rejected``: a run's ``rejected/`` (its English text, tokenised as the pre-filter does,
    only where the row could still be in the sample), so a run's ``pairs/`` gives the sample the run fitted on."""
    sample = first_rows((fit_candidates(batch, sentences)
                         for batch in pairs.batches([ID, EN_TOKENS], batch_rows)), sentences)
    if rejected is not None:
        text = TextProcessor(("en",))

        def tokenised() -> Iterator[pa.Table]:
            for batch in rejected.batches([ID, EN], batch_rows):
                limit = last_id(sample) if sample.num_rows >= sentences else None
                ids, en = batch.column(0).to_pylist(), batch.column(1).to_pylist()
                rows = [i for i, (row_id, line) in enumerate(zip(ids, en, strict=True))
                        if line and (limit is None or row_id < limit)]
                tokens = [text.tokenize(en[i], "en") for i in rows]
                yield fit_candidates(pa.table({ID: [ids[i] for i in rows],
                                               EN_TOKENS: pa.array(tokens, pa.list_(pa.string()))}), sentences)

        for table in tokenised():
            sample = first_rows([sample, table], sentences)
    return sample_sentences(sample)


@dataclass(frozen=True)
class ScoredFile:
    """What :func:`score_parquet` wrote: the file, its pairs and the scores' summary."""

    path: Path
    pairs: int
    no_known_words: int
    trigram_overlap_sum: float
    paraphrase_score_sum: float
    seconds: float

    @property
    def mean_trigram_overlap(self) -> float:
        return self.trigram_overlap_sum / self.pairs if self.pairs else float("nan")

    @property
    def mean_paraphrase_score(self) -> float:
        return self.paraphrase_score_sum / self.pairs if self.pairs else float("nan")


def score_parquet(source: ParquetInput, out: Path, scorer: ParagramScorer, *, batch_rows: int = 65536,
                  progress: Callable[[int], object] | None = None) -> ScoredFile:
    """Score the pairs of ``source`` (one table's shards, in order) into the Parquet file
    ``out``, ``batch_rows`` rows at a time; ``progress(rows)`` after each batch. ``out`` appears only when complete
    (written as a hidden ``.NAME.partial`` beside it, then renamed): a killed call leaves no half file under its
    name. The schema is the input's with the score columns (:func:`scored_schema`) and the scorer's id and
    parameters as metadata. A call that fails removes its partial file."""
    schema = with_metadata(scored_schema(source.schema), scorer_id=scorer.scorer_id, score=scorer.params)
    started = time.perf_counter()
    pairs = no_known = 0
    overlap_sum = paraphrase_sum = 0.0
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    try:
        with pq.ParquetWriter(partial, schema) as writer:
            for batch in source.batches(batch_rows=batch_rows):
                table = score_pairs(pa.Table.from_batches([batch]), scorer).replace_schema_metadata(schema.metadata)
                writer.write_table(table)
                pairs += table.num_rows
                no_known += int(np.count_nonzero(table[NO_KNOWN_WORDS].to_numpy()))
                overlap_sum += float(np.sum(table[TRIGRAM_OVERLAP].to_numpy(), dtype=np.float64))
                paraphrase_sum += float(np.sum(table[PARAPHRASE_SCORE].to_numpy(), dtype=np.float64))
                if progress is not None:
                    progress(table.num_rows)
    except BaseException:  # a bad batch, a Ctrl-C: nothing half-written stays behind
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, out)
    return ScoredFile(out, pairs, no_known, overlap_sum, paraphrase_sum, time.perf_counter() - started)
