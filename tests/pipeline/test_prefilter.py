"""Stages 2, 3 and 5: pre-filter reasons, dedup on the normalised pair, the pair record."""

from __future__ import annotations

import pytest

from core import pair_schema as S
from core.pair_schema import Reason
from core.text import TextProcessor
from pipeline.backtranslate import apply_translation
from pipeline.prefilter import (
    PrefilterOptions,
    pair_record,
    pick_duplicates,
    prefilter_row,
)
from pipeline.write import records_to_table

pytestmark = pytest.mark.timeout(120)


def _row(cs: str, en: str, i: int = 1) -> dict:
    return {"id": f"t:L{i:012d}", "source": "t", "cs": cs, "en": en, "mt": None, "mt_score": None, "row": i - 1}


@pytest.mark.parametrize(("cs", "en", "reason"), [
    ("", "Hello.", Reason.EMPTY_SIDE),
    ("Ahoj.", "   ", Reason.EMPTY_SIDE),
    ("Ahoj\x07 světe.", "Hello world.", Reason.GARBAGE),
    ("Ahoj.", "Hello\tworld.", Reason.GARBAGE),
    ("!!! ??? ...", "Hello.", Reason.GARBAGE),
    ("Tom.", "tom .", Reason.UNTRANSLATED),
    (" ".join(["slovo"] * 250), " ".join(["word"] * 250), Reason.SOURCE_TOO_LONG),
    ("Ano.", "Yes, I will certainly do that for you tomorrow morning.", Reason.LENGTH_RATIO),
])
def test_prefilter_reasons(cs, en, reason):
    kept, rejected = prefilter_row(_row(cs, en), TextProcessor(), PrefilterOptions())
    assert kept is None and rejected["reason"] == reason and rejected["stage"] == "prefilter"
    assert rejected["detail"] and rejected["cs"] == cs and rejected["en"] == en


def test_prefilter_keeps_normal_pairs_with_tokens():
    kept, rejected = prefilter_row(_row("„Dobrý den,“ řekl Dr. Novák.", '"Good morning," said Dr. Novak.'),
                                   TextProcessor(), PrefilterOptions())
    assert rejected is None
    assert kept["en_tokens"] == ['"', "Good", "morning", ",", '"', "said", "Dr.", "Novak", "."]
    assert len(kept["dedup_key"]) == 16


def test_dedup_keeps_the_first_row_on_the_normalised_pair():
    text = TextProcessor()
    rows = [prefilter_row(_row("Ahoj,  světe!", "Hello, world!", i), text, PrefilterOptions())[0]
            for i in (7, 3)]
    rows.append(prefilter_row(_row("Ahoj, světe !", "Hello , world!", 9), text, PrefilterOptions())[0])
    assert len({r["dedup_key"] for r in rows}) == 1
    kept, duplicates = pick_duplicates(rows)
    assert kept["id"] == "t:L000000000003"
    assert [(d["id"], d["reason"], d["detail"]) for d in duplicates] == [
        ("t:L000000000007", "duplicate", "duplicate of t:L000000000003"),
        ("t:L000000000009", "duplicate", "duplicate of t:L000000000003")]


def test_pair_record_and_translation_outcomes():
    text = TextProcessor()
    row, _ = prefilter_row(_row("Ahoj.", "Hello."), text, PrefilterOptions())
    fields = {"status": "ok", "hypothesis": "Hi there.", "score": -0.25, "hit_length_cap": True, "error": None}
    translated, rejected = apply_translation(row, fields, "model-x")
    assert rejected is None
    pair, rejected = pair_record(translated, text, "model-x")
    assert rejected is None and set(pair) == set(S.PAIRS_SCHEMA.names)
    assert pair["mt_tokens"] == ["Hi", "there", "."] and pair["translation_score"] == -0.25
    assert pair["hit_length_cap"] is True and pair["nmt_model_id"] == "model-x" and pair["keep"] is None
    table = records_to_table([pair])
    S.check_schema(table.schema)
    for status, reason in (("empty", "translation_empty"), ("too_long", "translation_too_long"),
                           ("failed", "translation_failed")):
        _, rejected = apply_translation(row, {**fields, "status": status, "error": "boom"}, "m")
        assert rejected["reason"] == reason and rejected["stage"] == "translate"
    _, rejected = pair_record({**translated, "mt": " "}, text, "m")
    assert rejected["reason"] == "translation_empty"


def test_column_wise_dedup_equals_pick_duplicates_on_real_pairs():
    """duplicates_in (the pipeline's column-wise dedup in one bucket) against pick_duplicates per group (the obvious
    reference), on real captions with many repeats, rows in shuffled order."""
    import random

    import numpy as np
    import pyarrow as pa

    from pipeline.prefilter import DEDUP_KEY, duplicates_in
    from pipeline.records import PREFILTERED_SCHEMA
    from tests.conftest import read_lines, shared_data

    bitext = shared_data("bitext")
    cs, en = read_lines(bitext / "multi30k-train.cs")[:300], read_lines(bitext / "multi30k-train.en")[:300]
    text, options = TextProcessor(), PrefilterOptions()
    rows = [prefilter_row(_row(cs[i % 120], en[i % 120], i + 1), text, options)[0] for i in range(300)]
    rows = [r for r in rows if r is not None]
    random.Random(3).shuffle(rows)
    table = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    kept, dropped = duplicates_in(table)
    groups: dict[bytes, list[dict]] = {}
    for row in rows:
        groups.setdefault(row[DEDUP_KEY], []).append(row)
    expected = [pick_duplicates(group) for group in groups.values()]
    ids = table[S.ID].to_pylist()
    assert sorted(ids[i] for i in kept) == sorted(k[S.ID] for k, _ in expected)
    assert sorted((ids[d], ids[w]) for d, w in dropped) == sorted(
        (r[S.ID], r["detail"].removeprefix("duplicate of ")) for _, rejected in expected for r in rejected)
    assert len(dropped) == 300 - 120 - (300 - len(rows)) and np.intersect1d(kept, dropped[:, 0]).size == 0


def test_column_wise_pair_records_equal_pair_record_on_real_pairs():
    """pair_table (the pipeline's column-wise pair records) against pair_record row by row (the obvious reference):
    real Multi30k rows with given translations, some empty or blank, with and without their own model ids and
    length-cap flags; the same records, rejections and Arrow table."""
    import pyarrow as pa

    from pipeline.prefilter import pair_table
    from pipeline.records import PREFILTERED_SCHEMA
    from tests.conftest import read_lines, shared_data

    bitext = shared_data("bitext")
    cs, en = read_lines(bitext / "multi30k-train.cs")[:200], read_lines(bitext / "multi30k-train.en")[:200]
    text, options = TextProcessor(), PrefilterOptions()
    rows = [prefilter_row(_row(cs[i], en[i], i + 1), text, options)[0] for i in range(200)]
    rows = [{**r, "mt": en[(i + 1) % 200] if i % 17 else ("" if i % 2 else " .. "), "mt_score": -0.5 * (i % 3)}
            for i, r in enumerate(rows) if r is not None]
    plain = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA)
    with_ids = plain.append_column(S.NMT_MODEL_ID, pa.array([("own" if i % 3 else "") if i % 5 else None
                                                              for i in range(len(rows))], pa.string()))
    with_ids = with_ids.append_column(S.HIT_LENGTH_CAP, pa.array([i % 4 == 0 for i in range(len(rows))]))
    for table in (plain, with_ids):
        expected = [pair_record(r, text, r.get(S.NMT_MODEL_ID) or "model-x") for r in table.to_pylist()]
        got, rejected = pair_table(table, text, "model-x")
        assert got.equals(pa.Table.from_pylist([p for p, _ in expected if p is not None], schema=S.PAIRS_SCHEMA))
        assert rejected == [r for _, r in expected if r is not None] and 5 <= len(rejected) < 20
    assert set(got.column(S.NMT_MODEL_ID).to_pylist()) == {"own", "model-x"}
