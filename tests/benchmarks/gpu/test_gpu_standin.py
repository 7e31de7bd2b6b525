"""The CPU stand-in for a fast GPU: one device (batches never overlap), real answers, and the benchmark end to end."""

from __future__ import annotations

import itertools
import json
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from configs.schema import TranslateConfig
from tests.support.repo import load_benchmark
from tests.support.shared_data import shared_data
from translate.card import DEFAULT_MODEL_DIR, ModelDir


def test_stand_in_answers_from_its_table_one_batch_at_a_time(tmp_path: Path, monkeypatch):
    standin = load_benchmark("gpu/gpu_standin")
    table = tmp_path / "answers.parquet"
    pq.write_table(pa.table({"source": ["a b", "c"], "target": [["x", "y"], ["z"]], "score": [-0.1, -0.2]}), table)
    log = tmp_path / "busy.log"
    settings = standin.StandInSettings(str(table), 0.001, str(log))
    monkeypatch.setenv(standin.SETTINGS_ENV, json.dumps(settings.__dict__))
    backend = standin.StandInBackend(ModelDir(DEFAULT_MODEL_DIR), TranslateConfig(), "cpu")
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(backend.decode([["a", "b"], ["c"]]))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all([[h.tokens for h in nbest] for nbest in a] == [[["x", "y"]], [["z"]]] for a in answers)
    intervals = sorted(tuple(map(float, line.split()[:2])) for line in log.read_text().splitlines())
    assert len(intervals) == 4
    assert all(end <= start for (_, end), (start, _) in itertools.pairwise(intervals)), \
        "one device: a batch starts after the previous one ended"
    busy = sum(end - start for start, end in intervals) / (intervals[-1][1] - intervals[0][0])
    assert standin.busy_share(log, intervals[0][0], intervals[-1][1]) == round(busy, 3)


def test_gpu_standin_smoke(tmp_path: Path):
    shared_data("bitext")
    out = tmp_path / "standin.json"
    assert load_benchmark("gpu/gpu_standin").main(["--rows", "20,40", "--rate", "2000", "--workers", "1",
                                               "--standalone-rates", "4000", "--text-processes", "0,1",
                                               "--work", str(tmp_path / "work"), "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    host = result["host_side"]["this code"]
    stages = host["host_us_per_sentence"]
    assert all(stages[k] > 0 for k in ("moses", "detokenise", "whole_call", "host_bound_sentences_per_second"))
    assert [(r["text_processes"], r["rows"]) for r in host["rates"]] == [(0, 40), (1, 40)]
    assert all(0 < r["busy_share"] <= 1 for r in host["rates"])
    assert result["standalone"]["rows"] == 40 and result["standalone"]["rows_per_second"] > 0
    runs = result["pipeline"]
    assert [r["rows"] for r in runs] == [20, 40] and all("error" not in r for r in runs)
    assert "marginal_over_standalone" in runs[-1] and 0 < runs[-1]["busy_share"] <= 1
    assert result["same_train_everywhere"]
