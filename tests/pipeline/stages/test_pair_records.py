"""pipeline.stages.pair_records: translated rows to rows of ``pairs/`` -- the column-wise pair records checked
against the row-at-a-time reference (tests/support/prefilter_reference.py) on real pairs, and the DoFn's outputs:
pair batches and ``translation_empty`` rejections, counted."""

from __future__ import annotations

import pyarrow as pa

from paranmt.core import pair_schema as S
from paranmt.core.text import TextProcessor
from pipeline.records import PREFILTERED_SCHEMA, REJECTED_TAG
from pipeline.stages.pair_records import PairRecords, pair_table
from tests.support.prefilter_reference import pair_record
from tests.support.prefiltered_rows import decoded_row, dofn_outputs, prefilter
from tests.support.taste_data import TASTE_DATA, taste_pairs
from tests.support.text_files import read_lines

SOFTWARE = TASTE_DATA / "bitext-software"  # the bundled licensed excerpt (300 pairs)


def _pair_records(batch: pa.Table, model_id: str | None) -> tuple[list[pa.Table], list[dict]]:
    """The pair records' DoFn on one batch: (pair batches, rejections)."""
    out = dofn_outputs(PairRecords(model_id), batch)
    assert set(out) <= {None, REJECTED_TAG}
    return out[None], out[REJECTED_TAG]


def test_column_wise_pair_records_equal_pair_record_on_real_pairs():
    """pair_table (the pipeline's column-wise pair records) against pair_record row by row (the obvious reference):
    real LibreOffice help rows with given translations, some empty or blank, with and without length-cap flags; the
    same records, rejections and Arrow table."""
    cs = read_lines(SOFTWARE / "libreoffice-help.cs")[:200]
    en = read_lines(SOFTWARE / "libreoffice-help.en")[:200]
    text = TextProcessor()
    rows, _, _ = prefilter([decoded_row(cs[i], en[i], i + 1) for i in range(200)])
    rows = [{**r, "mt": en[(i + 1) % 200] if i % 17 else ("" if i % 2 else " .. "), "translation_score": -0.5 * (i % 3)}
            for i, r in enumerate(rows) if r is not None]
    plain = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    capped = plain.append_column(S.HIT_LENGTH_CAP, pa.array([i % 4 == 0 for i in range(len(rows))]))
    for table in (plain, capped):
        expected = [pair_record(r, text, "model-x") for r in table.to_pylist()]
        got, rejected = pair_table(table, text, "model-x")
        assert got.equals(pa.Table.from_pylist([p for p, _ in expected if p is not None], schema=S.PAIRS_SCHEMA))
        assert rejected == [r for _, r in expected if r is not None] and 5 <= len(rejected) < 20
    assert set(got.column(S.NMT_MODEL_ID).to_pylist()) == {"model-x"}


def test_the_dofn_sends_pairs_and_counted_rejections_on_real_translations():
    """The bundled Tatoeba triples with their real translations, a few blanked: one pair batch of the rest in input
    order with the model id, and each blank one ``translation_empty`` at stage ``translate``."""
    cs, en, mt = taste_pairs(60)
    rows, _, _ = prefilter([decoded_row(c, e, i + 1) for i, (c, e) in enumerate(zip(cs, en, strict=True))])
    blank = {3, 17, 41}
    rows = [{**r, "mt": "  " if i in blank else mt[int(r["row"])]} for i, r in enumerate(rows)]
    batch = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    [pairs], rejected = _pair_records(batch, "small-cs-en@1")
    assert pairs.schema == S.PAIRS_SCHEMA
    assert pairs.column(S.ID).to_pylist() == [r["id"] for i, r in enumerate(rows) if i not in blank]
    assert pairs.column(S.MT).to_pylist() == [r["mt"] for i, r in enumerate(rows) if i not in blank]
    assert set(pairs.column(S.NMT_MODEL_ID).to_pylist()) == {"small-cs-en@1"}
    assert all(pairs.column(name).null_count == pairs.num_rows
               for name in (S.PARAPHRASE_SCORE, S.TRIGRAM_OVERLAP, S.FOLD, S.KEEP, S.REASON))
    assert [(r["id"], r["stage"], r["reason"]) for r in rejected] == [
        (rows[i]["id"], "translate", "translation_empty") for i in sorted(blank)]


def test_a_batch_with_no_translation_left_sends_no_pair_batch():
    rows, _, _ = prefilter([decoded_row("Ahoj.", "Hello.", 1), decoded_row("Nashle.", "Bye.", 2)])
    batch = pa.Table.from_pylist([{**r, "mt": m} for r, m in zip(rows, ["", None], strict=True)],
                                 schema=PREFILTERED_SCHEMA)
    pairs, rejected = _pair_records(batch, None)
    assert pairs == [] and [r["id"] for r in rejected] == ["t:L000000000001", "t:L000000000002"]
