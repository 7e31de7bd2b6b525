"""The pre-filter over batches, checked against the row-at-a-time reference in tests/support/prefilter_reference.py
on real pairs, and the translation outcomes the pair records are made from."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paranmt.core import pair_schema as S
from paranmt.core.pair_schema import Reason
from paranmt.core.text import TextProcessor
from pipeline.records import PREFILTERED_SCHEMA
from pipeline.run import main as run_main
from pipeline.stages.backtranslate import TRANSLATION_SCHEMA, apply_translations
from pipeline.stages.write import records_to_table
from tests.support.prefilter_reference import pair_record, prefilter_row
from tests.support.prefiltered_rows import decoded_row, prefilter
from tests.support.taste_data import TASTE_DATA
from tests.support.text_files import read_lines

SOFTWARE = TASTE_DATA / "bitext-software"  # the bundled licensed excerpt (300 pairs)


@pytest.mark.parametrize(("cs", "en", "reason"), [
    ("", "Hello.", Reason.EMPTY_SIDE),
    ("Ahoj.", "   ", Reason.EMPTY_SIDE),
    ("Ahoj\x07 světe.", "Hello world.", Reason.GARBAGE),
    ("Ahoj.", "Hello\tworld.", Reason.GARBAGE),
    ("!!! ??? ...", "Hello.", Reason.GARBAGE),
    ("Tom.", "tom .", Reason.UNTRANSLATED),
    ("Straße.", "STRASSE .", Reason.UNTRANSLATED),  # full case folding, as str.casefold
    (" ".join(["slovo"] * 250), " ".join(["word"] * 250), Reason.SOURCE_TOO_LONG),
    ("Ano.", "Yes, I will certainly do that for you tomorrow morning.", Reason.LENGTH_RATIO),
])
def test_prefilter_reasons(cs, en, reason):
    kept, rejected, _ = prefilter([decoded_row(cs, en)])
    assert not kept and len(rejected) == 1
    (got,) = rejected
    assert got["reason"] == reason and got["stage"] == "prefilter"
    assert got["detail"] and got["cs"] == cs and got["en"] == en
    assert got == prefilter_row(decoded_row(cs, en), TextProcessor())[1]


def test_prefilter_keeps_normal_pairs_with_tokens():
    (kept,), rejected, _ = prefilter([decoded_row("„Dobrý den,“ řekl Dr. Novák.", '"Good morning," said Dr. Novak.')])
    assert not rejected
    assert kept["en_tokens"] == ['"', "Good", "morning", ",", '"', "said", "Dr.", "Novak", "."]
    assert len(kept["dedup_key"]) == 16


def test_prefilter_batches_equal_the_reference_on_real_pairs():
    """Real LibreOffice help and Tatoeba pairs (the bundled excerpts) plus hand-made bad ones: the same kept rows
    (tokens and dedup keys), the same rejections (reason and detail), and the scorer fit gets the English tokens of
    every row."""
    cs = read_lines(SOFTWARE / "libreoffice-help.cs")[:300] + read_lines(TASTE_DATA / "bitext" / "tatoeba.cs")[:300]
    en = read_lines(SOFTWARE / "libreoffice-help.en")[:300] + read_lines(TASTE_DATA / "bitext" / "tatoeba.en")[:300]
    cs += ["", "Ahoj\x1b[31m.", "¿¿¿ !!! ...", "Tom.", "Ano.", "Pes\u00a0\u00a0\u2003běží .", "Straße"]
    en += ["Hello.", "Hi.", "What?", "tom .", "Yes, I will certainly do that for you tomorrow morning.",
           "%%% ### @@@ x", "STRASSE"]
    rows = [decoded_row(c, e, i + 1) for i, (c, e) in enumerate(zip(cs, en, strict=True))]
    kept, rejected, fit = prefilter(rows, fit=10_000)
    text = TextProcessor()
    expected = [prefilter_row(r, text) for r in rows]
    assert kept == [k for k, _ in expected if k is not None]
    assert sorted(rejected, key=lambda r: r["id"]) == [r for _, r in expected if r is not None]  # shards sort by id
    assert 7 <= len(rejected) < 100
    assert [f["id"] for f in fit] == sorted(r["id"] for r in rows if text.tokenize(r["en"], "en"))


def test_pair_record_and_translation_outcomes():
    text = TextProcessor()
    rows, _, _ = prefilter([decoded_row(f"Ahoj {i}.", f"Hello {i}.", i) for i in range(1, 6)])
    table = pa.Table.from_pylist(rows, schema=PREFILTERED_SCHEMA).drop_columns(["dedup_key"])
    statuses = ["ok", "empty", "ok", "too_long", "failed"]
    translations = pa.Table.from_pylist(
        [{"status": status, "hypothesis": f"Hi there {i}." if status == "ok" else "", "score": -0.25 * i,
          "hit_length_cap": i == 0, "error": "boom" if status == "failed" else None}
         for i, status in enumerate(statuses)], schema=TRANSLATION_SCHEMA)
    translated, rejected = apply_translations(table, translations)
    assert translated.column_names == [*table.column_names, S.HIT_LENGTH_CAP]
    assert translated.column(S.ID).to_pylist() == [rows[0]["id"], rows[2]["id"]]
    assert [(r["id"], r["reason"], r["stage"], r["detail"], r["mt"]) for r in rejected] == [
        (rows[1]["id"], "translation_empty", "translate", "translation status empty", None),
        (rows[3]["id"], "translation_too_long", "translate", "translation status too_long", None),
        (rows[4]["id"], "translation_failed", "translate", "boom", None)]
    pair, rejected = pair_record(translated.to_pylist()[0], text, "model-x")
    assert rejected is None and set(pair) == set(S.PAIRS_SCHEMA.names)
    assert pair["mt_tokens"] == ["Hi", "there", "0", "."] and pair["translation_score"] == 0.0
    assert pair["hit_length_cap"] is True and pair["nmt_model_id"] == "model-x" and pair["keep"] is None
    S.check_schema(records_to_table([pair]).schema)
    _, rejected = pair_record({**translated.to_pylist()[1], "mt": " "}, text, "m")
    assert rejected["reason"] == "translation_empty"


@pytest.mark.parametrize("kind", ["pair files", "jsonl", "parquet"])
def test_a_tab_inside_a_sentence_is_a_space_and_a_control_character_is_still_garbage(kind, tmp_path, capsys):
    """Real pairs (the bundled Tatoeba excerpt) where two sentences share a line separated by a tab, as rows of
    WMT test sets do: kept, the tab read as a space; a real control character (BEL) is still ``garbage``."""
    cs, en = (read_lines(TASTE_DATA / "bitext" / f"tatoeba.{side}")[:40] for side in ("cs", "en"))
    rows = [(cs[i], en[i]) for i in range(0, 30)]
    rows[3] = (f"{cs[30]}\t{cs[31]}", f"{en[30]}\t{en[31]}")
    rows[7] = (f"{cs[32]}\t{cs[33]}", en[32])
    rows[9] = (cs[34], f"{en[34]}\x07")
    mt = [english for _, english in rows]  # given, so nothing is translated
    if kind == "pair files":
        for side, texts in (("cs", [c for c, _ in rows]), ("en", [e for _, e in rows]), ("mt", mt)):
            (tmp_path / f"p.{side}").write_text("".join(f"{t}\n" for t in texts), encoding="utf-8")
        inputs = ["--cs", tmp_path / "p.cs", "--en", tmp_path / "p.en", "--mt", tmp_path / "p.mt"]
    elif kind == "jsonl":
        (tmp_path / "p.jsonl").write_text("".join(json.dumps({"cs": c, "en": e, "mt": m}) + "\n"
                                                  for (c, e), m in zip(rows, mt, strict=True)), encoding="utf-8")
        inputs = ["--jsonl", tmp_path / "p.jsonl", "--mt-column", "mt"]
    else:
        pq.write_table(pa.table({"cs": [c for c, _ in rows], "en": [e for _, e in rows], "mt": mt}),
                       tmp_path / "p.parquet")
        inputs = ["--parquet", tmp_path / "p.parquet", "--mt-column", "mt"]
    out = tmp_path / "run"
    assert run_main([str(a) for a in (*inputs, "--no-score", "--no-dedup", "--out", out, "--quiet",
                                      "--runner", "BundleBasedDirectRunner")]) == 0, capsys.readouterr().err
    pairs = {row["id"][-3:]: row for row in pq.read_table(out / "pairs").to_pylist()}
    assert pairs[f"{4:03d}"]["cs"] == f"{cs[30]} {cs[31]}" and pairs[f"{4:03d}"]["en"] == f"{en[30]} {en[31]}"
    assert pairs[f"{8:03d}"]["cs"] == f"{cs[32]} {cs[33]}"
    [rejected] = pq.read_table(out / "rejected").to_pylist()
    assert rejected["reason"] == Reason.GARBAGE and "control character U+0007" in rejected["detail"], rejected
    assert len(pairs) == len(rows) - 1
