"""What a training run reports (train_embeddings/training/reporting.py): log entries over a window of updates, the
one-time warning about negatives nearer than the paraphrases, ``metrics.json`` and ``curves.png``; on hand-built
states whose every figure is worked out here."""

from __future__ import annotations

import json
import logging

import pytest
import torch

from tests.support.training_pairs import tiny
from train_embeddings.training.reporting import TRAINER_LOG, MetricsWriter, ProgressLog, epochs_done, plot_curves
from train_embeddings.training.state import Schedule, TrainingState, new_history


def _state() -> TrainingState:
    """The progress a report reads: position and history (the model is not looked at)."""
    return TrainingState(spec=None, encoder=None, optimizer=None, generator=None, n_pairs=300,  # type: ignore
                         history=new_history())


SCHEDULE = Schedule(megabatch_pairs=60, steps_per_epoch=15, total_steps=45, eval_points=frozenset({8, 15}))


def test_a_window_of_updates_is_one_log_entry_with_its_mean_loss_and_statistics(tatoeba_129_pairs):
    cfg = tiny("word", tatoeba_129_pairs, log_every=3)
    state = _state()
    progress = ProgressLog(cfg, SCHEDULE, state, progress=False)
    nan = float("nan")
    for step, (loss, stats) in enumerate([(1.0, [0.5, 0.1, 0.8, 1.0]), (2.0, [0.7, nan, 0.6, 0.0]),
                                          (4.5, [0.3, 0.3, 0.7, 0.5])], start=1):
        state.position.step = step
        progress.add_statistics(torch.tensor(stats))
        progress.record(loss)
        assert len(state.history["log"]) == (step == 3)
    progress.close()
    (entry,) = state.history["log"]
    assert entry["step"] == 3 and entry["epoch"] == round(3 / 15, 4) and entry["loss"] == pytest.approx(7.5 / 3)
    # NaN-mean per statistic: (0.5+0.7+0.3)/3, (0.1+0.3)/2, (0.8+0.6+0.7)/3, (1+0+0.5)/3, to 4 decimals
    assert (entry["positive_cos"], entry["negative_cos"], entry["positive_nearer"], entry["margin_met"]) == \
        (0.5, 0.2, 0.7, 0.5)
    assert entry["pairs_per_second"] > 0 and "warnings" not in state.history  # 70% nearer: no warning


def test_the_false_negative_warning_comes_once_after_a_fifth_of_the_run(tatoeba_129_pairs, caplog):
    cfg = tiny("word", tatoeba_129_pairs, log_every=1, megabatch=3, batch_size=20)
    state = _state()
    progress = ProgressLog(cfg, SCHEDULE, state, progress=False)
    collapsed = torch.tensor([0.99, 0.995, 0.25, 0.0])  # both cosines over 0.98: the embeddings collapsed
    with caplog.at_level(logging.WARNING, logger=TRAINER_LOG):
        for step in (8, 9, 10):  # 8 < 0.2 * 45: too early to judge
            state.position.step = step
            progress.add_statistics(collapsed)
            progress.record(1.0)
            assert bool(state.history.get("warnings")) == (step >= 9)
    progress.close()
    (message,) = state.history["warnings"]
    assert [r.getMessage() for r in caplog.records] == [message]  # once, not at step 10 again
    assert message.startswith("step 9: only 25% of sentences have their paraphrase nearer than the negative mined "
                              "from the mega-batch (M=3, 120 sentences); the embeddings have collapsed")
    assert "--megabatch" in message and "--negatives mix" in message


def test_epochs_done():
    assert epochs_done(23, 15) == 1.5333 and epochs_done(0, 15) == 0.0 and epochs_done(5, 0) == 0.0


def test_metrics_json_holds_the_settings_facts_history_and_timings(tatoeba_129_pairs, tmp_path):
    cfg = tiny("word", tatoeba_129_pairs, epochs=3)
    state = _state()
    state.position.step = 23
    state.history["log"] = [{"step": 10, "loss": 0.9}, {"step": 20, "loss": 0.7}]
    state.history["evaluations"] = [{"step": 15, "epoch": 1.0, "dev": 0.4}]
    state.history["best"] = {"step": 15, "epoch": 1.0, "metric": "dev", "score": 0.4}
    state.history["_noted_metric"] = True  # the evaluator's private note is not written
    timing = {"train_s": 1.23456}
    metrics_path, curves = MetricsWriter(tmp_path, cfg, {"n_pairs": 300}, started=0.0).write(
        state, SCHEDULE, timing, finished=False)
    metrics = json.loads(metrics_path.read_text())
    assert metrics_path == tmp_path / "metrics.json" and curves == tmp_path / "curves.png"
    assert metrics["config"]["model"] == "word" and metrics["n_pairs"] == 300
    assert metrics["total_steps"] == 45 and metrics["steps"] == 23 and metrics["epochs_done"] == 1.5333
    assert metrics["finished"] is False and metrics["warnings"] == [] and metrics["best"]["score"] == 0.4
    assert [e["step"] for e in metrics["log"]] == [10, 20] and metrics["evaluations"][0]["dev"] == 0.4
    assert metrics["timing_this_call"]["train_s"] == 1.235 and "wall_s" in timing
    assert "_noted_metric" not in state.history
    assert curves.read_bytes()[:4] == b"\x89PNG"


def test_nothing_to_plot_is_no_file(tmp_path):
    assert plot_curves(new_history(), tmp_path / "curves.png") is None
    assert not (tmp_path / "curves.png").exists()
