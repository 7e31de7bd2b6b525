"""pipeline.outputs.summary.build_summary: which metric/file disagreements fail a run and which are warnings."""

from __future__ import annotations

from pipeline.metrics import READ_COUNTER, rejected_counter, written_counter
from pipeline.outputs.summary import build_summary

FILES = {"pairs": 10, "train": None, "rejected": 3, "deadletter": 0, "shards": {},
         "rejected_by_stage": {"prefilter": {"length_ratio": 3}}, "deadletter_by_reason": {}, "pairs_by_decision": {}}


def summary(metrics, **kwargs):
    return build_summary({READ_COUNTER: 13, **metrics}, FILES, output_dir="out", expected_read=13, scored=False,
                         **kwargs)["identity"]


def exact():
    return {written_counter("pairs"): 10, written_counter("rejected"): 3, written_counter("deadletter"): 0,
            rejected_counter("length_ratio"): 3}


def test_exact_counters_hold_without_warnings():
    identity = summary(exact())
    assert identity["holds"] and identity["warnings"] == []


def test_a_wrong_counter_fails_the_run():
    identity = summary({**exact(), written_counter("rejected"): 2})
    assert not identity["holds"] and "written_rejected = 2 but the files hold 3" in identity["problems"][0]


def test_a_runner_that_drops_counter_updates_gets_warnings_for_low_counters_only():
    low = summary({**exact(), written_counter("rejected"): 2}, counters_may_drop=True)
    assert low["holds"] and "written_rejected = 2" in low["warnings"][0]
    high = summary({**exact(), written_counter("rejected"): 4}, counters_may_drop=True)
    assert not high["holds"]  # a counter above the files is never a dropped update


def test_a_missing_counter_is_a_warning():
    metrics = exact()
    del metrics[written_counter("rejected")]
    identity = summary(metrics)
    assert identity["holds"] and "no metric written_rejected" in identity["warnings"][0]
