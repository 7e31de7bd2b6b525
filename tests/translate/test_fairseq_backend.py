"""translate.fairseq_backend: a fairseq checkpoint decoded natively on the tiny toy model -- a batch decodes as its
sentences one by one, n-best lists best first without the end token, every tensor of a sample on the model's
device -- and the one-line refusals of a card without a checkpoint and of a missing extra."""

from __future__ import annotations

import sys

import pytest
import torch

from configs.schema import TranslateConfig
from translate.card import DEFAULT_MODEL_DIR, ModelDir, ModelDirError
from translate.fairseq_backend import FairseqBackend, import_fairseq
from translate.text_chain import SourceEncoder
from translate.translator import BackendUnavailable


def _backend(model, **settings) -> FairseqBackend:
    config = TranslateConfig(model=model, backend="fairseq", device="cpu", compute_type="float32", threads=1,
                             **settings)
    return FairseqBackend(ModelDir(model), config, "cpu")


@pytest.fixture(scope="module")
def toy_backend(toy_model) -> FairseqBackend:
    """The toy model's fairseq backend, loaded once (beam 3, 2-best lists)."""
    return _backend(toy_model, beam_size=3, nbest=2)


def test_fairseq_hands_the_generator_a_sample_on_one_device(toy_backend, monkeypatch):
    """On a GPU the generator indexes ``sample["id"]`` with indices it makes on the GPU, so every tensor of the
    sample must be on the model's device. Checked on the CPU with the meta device (tensors with no data): a tensor
    left on the CPU shows."""
    backend = toy_backend
    devices: list[set[torch.device]] = []

    class Seen(Exception):
        pass

    def inference_step(generator, models, sample):
        tensors = [sample["id"], *sample["net_input"].values()]
        devices.append({t.device for t in tensors})
        raise Seen

    monkeypatch.setattr(backend.task, "inference_step", inference_step)
    monkeypatch.setattr(backend, "device", "meta")
    with pytest.raises(Seen):
        backend.decode([["a", "b"], ["c"]])
    assert devices == [{torch.device("meta")}]


@pytest.mark.slow
def test_a_batch_decodes_as_its_sentences_alone_in_its_own_order(toy_backend, toy_model, toy_corpus):
    """Sentences of different lengths (the collater sorts them by length; ``id`` maps them back): the batch's
    n-best lists equal each sentence decoded alone, in the batch's order, best first, without ``</s>``."""
    backend = toy_backend
    assert backend.compute_type == "float32"
    sentences = sorted(toy_corpus[0][3000:3400], key=len)[::80][::-1]  # held-out pairs, longest first
    batch = SourceEncoder(ModelDir(toy_model)).encode_batch(sentences)
    together = backend.decode(batch)
    alone = [backend.decode([tokens])[0] for tokens in batch]
    assert [[h.tokens for h in nbest] for nbest in together] == [[h.tokens for h in nbest] for nbest in alone]
    for nbest, single in zip(together, alone, strict=True):
        assert len(nbest) == 2 and nbest[0].score >= nbest[1].score
        assert [h.score for h in nbest] == pytest.approx([h.score for h in single], abs=1e-4)
        assert all(h.tokens and "</s>" not in h.tokens for h in nbest)


def test_a_card_without_a_fairseq_checkpoint_is_refused_before_loading():
    with pytest.raises(ModelDirError, match=r"names no fairseq checkpoint \(key `fairseq`\)$"):
        _backend(DEFAULT_MODEL_DIR)  # the bundled default model: CTranslate2 only


def test_a_missing_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "fairseq.checkpoint_utils", None)  # what an absent package raises on import
    with pytest.raises(BackendUnavailable) as error:
        import_fairseq()
    assert "the fairseq backend needs the fairseq extra" in str(error.value)
    assert 'PIP_CONSTRAINT=constraints.txt pip install -e ".[fairseq]"' in str(error.value)
