"""train_embeddings.evaluation.thread_pools: what one thread means in a speed figure. The pools are pinned and restored,
and the Hugging Face tokenizers' Rayon pool (global to a process, so checked in fresh ones) starts no thread while
pinned, where the same batch does start one unpinned; SentencePiece batches follow torch's thread setting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import torch
from threadpoolctl import threadpool_info

from train_embeddings.evaluation.thread_pools import cpu_model, pinned, pinned_environment, pool_report
from train_embeddings.vocab import SentencePieceVocab

REPO = Path(__file__).resolve().parents[3]
# Threads a 20,000-sentence tokenizers batch starts in a fresh process, inside pinned(1) and then outside it.
PROBE = """
import json
from train_embeddings.evaluation.thread_pools import pinned, tokenizer_threads_started
with pinned(1):
    inside = tokenizer_threads_started()
print(json.dumps({"pinned": inside, "unpinned": tokenizer_threads_started()}))
"""


def test_pinned_limits_every_pool_and_restores_them(monkeypatch) -> None:
    monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)
    before = torch.get_num_threads()
    with pinned(1):
        report = pool_report()
        assert torch.get_num_threads() == 1 and os.environ["TOKENIZERS_PARALLELISM"] == "false"
        assert all(pool["num_threads"] == 1 for pool in threadpool_info())
    assert report["torch_intra_op"] == 1 and all(line.endswith(": 1") for line in report["native"])
    assert torch.get_num_threads() == before and "TOKENIZERS_PARALLELISM" not in os.environ


def test_a_fresh_pinned_process_keeps_the_tokenizers_pool_unused() -> None:
    def probe(env: dict[str, str]) -> dict[str, int]:
        done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONPATH": str(REPO), **env})
        return json.loads(done.stdout.splitlines()[-1])

    # the probe sees a pool when there is one: two Rayon threads start the first time a batch runs in parallel
    assert probe({"TOKENIZERS_PARALLELISM": "true", "RAYON_NUM_THREADS": "2"}) == {"pinned": 0, "unpinned": 2}
    assert probe(pinned_environment(1)) == {"pinned": 0, "unpinned": 0}  # the environment pins it from the start


def test_sentencepiece_batches_use_torchs_threads(monkeypatch) -> None:
    sp = SentencePieceVocab.train([f"a man plays guitar number {i}" for i in range(200)], vocab_size=60)
    seen: list[int] = []
    encode = sp._sp.encode
    monkeypatch.setattr(sp._sp, "encode", lambda texts, **kw: seen.append(kw["num_threads"]) or encode(texts, **kw))
    with pinned(1):
        _, offsets = sp.encode_strings(pa.array(["a man plays", "guitar"]))
    sp.encode_strings(pa.array(["a man plays"]))
    assert seen == [1, torch.get_num_threads()] and len(offsets) == 3


def test_cpu_model_names_the_cpu() -> None:
    assert cpu_model().endswith("logical CPUs)") and not cpu_model().startswith(" (")
    assert pinned_environment(1)["TOKENIZERS_PARALLELISM"] == "false"
    assert pinned_environment(4)["OMP_NUM_THREADS"] == "4" and "TOKENIZERS_PARALLELISM" not in pinned_environment(4)
