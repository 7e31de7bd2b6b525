"""Rows as ingest hands them to the pre-filter, a stage's DoFn run on one element (:func:`dofn_outputs`), and the
pipeline's pre-filter run on one batch of rows: the inputs of the pre-filter's, dedup's and the pair records'
tests."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import apache_beam as beam
import pyarrow as pa

from configs.schema import ParaNMTConfig
from filters.rules import prefilter_rules
from pipeline.records import DECODED_SCHEMA, REJECTED_TAG
from pipeline.stages.prefilter import FIT_TAG, PrefilterRows


def decoded_row(cs: str, en: str, i: int = 1) -> dict:
    """Row ``i`` (1-based) of source ``t``, without a machine translation."""
    return {"id": f"t:L{i:012d}", "source": "t", "cs": cs, "en": en, "mt": None, "translation_score": None,
            "row": i - 1}


def dofn_outputs(stage: beam.DoFn, element: Any) -> dict[str | None, list[Any]]:  # Any: what the stage takes
    """``stage`` set up and run on one element: its main output under None, each tagged output under its tag."""
    stage.setup()
    outputs: dict[str | None, list[Any]] = defaultdict(list)
    for out in stage.process(element):
        tag, value = (out.tag, out.value) if isinstance(out, beam.pvalue.TaggedOutput) else (None, out)
        outputs[tag].append(value)
    return outputs


def prefilter(rows: list[dict], fit: int = 0) -> tuple[list[dict], list[dict], list[dict]]:
    """The pipeline's pre-filter DoFn on one batch: (kept rows, rejections, fit rows)."""
    stage = PrefilterRows(prefilter_rules(ParaNMTConfig()), fit_sentences=fit)
    out = dofn_outputs(stage, pa.Table.from_pylist(rows, schema=DECODED_SCHEMA))
    assert set(out) <= {None, REJECTED_TAG, FIT_TAG}
    return ([row for batch in out[None] for row in batch.to_pylist()], out[REJECTED_TAG],
            [row for batch in out[FIT_TAG] for row in batch.to_pylist()])
