"""fairseq backend: decodes a fairseq translation checkpoint natively (batched ``SequenceGenerator``)."""

from __future__ import annotations

import argparse
import contextlib
import copy
import logging
import os
from types import ModuleType

import torch

from configs.schema import TranslateConfig
from translate.card import ModelDir, ModelDirError
from translate.translator import BackendUnavailable, RawHypothesis

log = logging.getLogger(__name__)


def import_fairseq() -> tuple[ModuleType, ModuleType]:
    """``(fairseq, omegaconf)``: the one import of the optional ``fairseq`` extra (slow to import, so only when a
    fairseq model is used), or :class:`BackendUnavailable` saying how to install it."""
    try:
        import fairseq.checkpoint_utils
        import fairseq.utils
        import omegaconf
    except ImportError as error:
        raise BackendUnavailable(
            f"the fairseq backend needs the fairseq extra ({error}); install it with "
            '`PIP_CONSTRAINT=constraints.txt pip install -e ".[fairseq]"`'
        ) from error
    import fairseq

    return fairseq, omegaconf


def load_fairseq_checkpoint(checkpoint: str, data_dir: str):
    """(models, cfg, task) from a checkpoint, under torch >= 2.6's weights-only loading.

    fairseq 0.12 checkpoints pickle an ``argparse.Namespace``; it is allow-listed explicitly rather than
    turning weights-only loading off.
    """
    fairseq, _ = import_fairseq()
    with torch.serialization.safe_globals([argparse.Namespace]):
        return fairseq.checkpoint_utils.load_model_ensemble_and_task([checkpoint], arg_overrides={"data": data_dir})


_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


class FairseqBackend:
    name = "fairseq"

    def __init__(self, model_dir: ModelDir, config: TranslateConfig, device: str):
        spec = model_dir.card.fairseq
        if spec is None:
            raise ModelDirError(f"{model_dir.root}: the model card names no fairseq checkpoint (key `fairseq`)")
        self.device = device
        self.config = config
        if device == "cpu":
            torch.set_num_threads(config.threads or os.cpu_count() or 1)
        models, cfg, task = load_fairseq_checkpoint(str(model_dir.path(spec.checkpoint)),
                                                    str(model_dir.path(spec.data)))
        dtype = _DTYPES.get(config.compute_type) if device == "cuda" else None
        self.compute_type = str(dtype or torch.float32).removeprefix("torch.")
        for model in models:
            model.eval()
            model.to(device=device, dtype=dtype)
        self.models, self.task = models, task
        self.src_dict, self.tgt_dict = task.source_dictionary, task.target_dictionary
        gen_cfg = copy.deepcopy(cfg.generation)
        _, omegaconf = import_fairseq()
        with omegaconf.open_dict(gen_cfg):
            gen_cfg.beam = config.beam_size
            gen_cfg.nbest = config.nbest
            gen_cfg.max_len_a = 0
            gen_cfg.max_len_b = config.max_decoding_length
            gen_cfg.min_len = 1
            gen_cfg.lenpen = 1.0
            gen_cfg.unnormalized = False
        self.generator = task.build_generator(models, gen_cfg)

    def _source_ids(self, tokens: list[str]) -> torch.Tensor:
        index = self.src_dict.index
        return torch.tensor([index(t) for t in tokens] + [self.src_dict.eos()], dtype=torch.long)

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        src = [self._source_ids(tokens) for tokens in batch]
        dataset = self.task.build_dataset_for_inference(src, [len(s) for s in src])
        sample = dataset.collater([dataset[i] for i in range(len(src))])  # sorts by length; "id" maps back
        # Every tensor on the model's device: the generator indexes "id" with indices it makes there.
        sample = {"id": sample["id"].to(self.device),
                  "net_input": {k: v.to(self.device) for k, v in sample["net_input"].items() if v is not None}}
        with torch.inference_mode():
            outputs = self.task.inference_step(self.generator, self.models, sample)
        eos, symbols = self.tgt_dict.eos(), self.tgt_dict.symbols
        results: list[list[RawHypothesis]] = [[] for _ in batch]
        for sentence_id, hypos in zip(sample["id"].tolist(), outputs, strict=True):
            nbest = []
            for hypo in hypos[: self.config.nbest]:
                ids = hypo["tokens"].tolist()
                if ids and ids[-1] == eos:
                    ids = ids[:-1]
                nbest.append(RawHypothesis([symbols[i] for i in ids], float(hypo["score"])))
            results[sentence_id] = nbest
        return results

    def recover(self) -> None:
        if self.device == "cuda":
            with contextlib.suppress(Exception):
                torch.cuda.empty_cache()
