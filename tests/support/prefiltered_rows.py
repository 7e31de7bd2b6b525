"""Rows as ingest hands them to the pre-filter, and the pipeline's pre-filter DoFn run on one batch of them: the
inputs of the pre-filter's, dedup's and the pair records' tests."""

from __future__ import annotations

import apache_beam as beam
import pyarrow as pa

from configs.schema import ParaNMTConfig
from filters.rules import prefilter_rules
from pipeline.records import DECODED_SCHEMA
from pipeline.stages.prefilter import FIT_TAG, PrefilterRows


def decoded_row(cs: str, en: str, i: int = 1) -> dict:
    """Row ``i`` (1-based) of source ``t``, without a machine translation."""
    return {"id": f"t:L{i:012d}", "source": "t", "cs": cs, "en": en, "mt": None, "translation_score": None,
            "row": i - 1}


def prefilter(rows: list[dict], fit: int = 0) -> tuple[list[dict], list[dict], list[dict]]:
    """The pipeline's pre-filter DoFn on one batch: (kept rows, rejections, fit rows)."""
    stage = PrefilterRows(prefilter_rules(ParaNMTConfig()), fit_sentences=fit)
    stage.setup()
    kept, rejected, fitted = [], [], []
    for out in stage.process(pa.Table.from_pylist(rows, schema=DECODED_SCHEMA)):
        if isinstance(out, beam.pvalue.TaggedOutput):
            (fitted if out.tag == FIT_TAG else rejected).extend(
                out.value.to_pylist() if out.tag == FIT_TAG else [out.value])
        else:
            kept.extend(out.to_pylist())
    return kept, rejected, fitted
