"""Ingest's decoding: dead letters for what cannot be read as a pair, with the reason and position."""

from __future__ import annotations

import json

from configs.schema import PipelineConfig
from pipeline.inputs.plan import InputSpec, plan_reads
from pipeline.stages.ingest import decode_record
from tests.support.input_helpers import CAP, KEEP, read_all, write_file


def test_jsonl_decoding_dead_letters(tmp_path):
    lines = [json.dumps({"cs": "Ahoj.", "en": "Hello."}), "{not json", json.dumps(["a"]), json.dumps({"cs": "x"}),
             '{"cs": "\\ud800", "en": "y"}', "", json.dumps({"cs": 1, "en": "y"})]
    path = write_file(tmp_path / "j.jsonl", "\n".join(lines).encode() + b"\n\xff\n")
    spec = InputSpec.jsonl(path)
    decoded = [decode_record(r, spec, CAP, KEEP) for r in read_all(plan_reads([spec], PipelineConfig()))]
    assert decoded[0][0] == "row" and decoded[0][1]["cs"] == "Ahoj."
    reasons = [d[1]["reason"] for d in decoded[1:]]
    assert reasons == ["unparseable", "unparseable", "unparseable", "invalid_utf8", "unparseable", "unparseable",
                       "invalid_utf8"]


def test_invalid_utf8_is_a_dead_letter_with_position(tmp_path):
    cs = write_file(tmp_path / "u.cs", b"dobr\xc3 den\n")
    en = write_file(tmp_path / "u.en", b"good day\n")
    spec = InputSpec.pair(cs, en)
    tag, dead = decode_record(read_all(plan_reads([spec], PipelineConfig()))[0], spec, CAP, KEEP)
    assert tag == "deadletter" and dead["reason"] == "invalid_utf8" and "cs line at byte 4" in dead["error"]
    assert dead["raw"] == b"dobr\xc3 den" and dead["id"] == "u:L000000000001"
