"""CTranslate2 backend: the fast path (C++ beam search, int8/float16 kernels, CPU and CUDA)."""

from __future__ import annotations

import os

import ctranslate2

from configs.schema import TranslateConfig
from translate.card import ModelDir, ModelDirError
from translate.translator import RawHypothesis


class BackendUnavailable(RuntimeError):
    """The backend cannot run here (library missing, CUDA libraries missing, ...); the message says what to do."""


def cuda_device_count() -> int:
    try:
        return ctranslate2.get_cuda_device_count()
    except Exception:
        return 0


class CTranslate2Backend:
    name = "ctranslate2"

    def __init__(self, model_dir: ModelDir, config: TranslateConfig, device: str):
        ct2_dir = model_dir.ct2_dir
        if ct2_dir is None:
            raise ModelDirError(f"{model_dir.root}: the model card names no CTranslate2 model (key `ctranslate2`); "
                                "convert the fairseq checkpoint with `python -m translate.convert fairseq`")
        self.device = device
        self.config = config
        threads = config.threads or os.cpu_count() or 1
        try:
            self.translator = ctranslate2.Translator(
                str(ct2_dir), device=device, device_index=config.device_index,
                compute_type=config.compute_type, inter_threads=1,
                intra_threads=threads if device == "cpu" else 0,
            )
        except (RuntimeError, ValueError) as error:
            message = str(error)
            if device == "cuda" and ("cuda" in message.lower() or ".so" in message):
                raise BackendUnavailable(
                    f"CTranslate2 {ctranslate2.__version__} cannot use the GPU here: {message}. The PyPI wheel "
                    "links CUDA 12 (cuBLAS 12, cuDNN 9); install those libraries (e.g. pip install "
                    "nvidia-cublas-cu12 nvidia-cudnn-cu12 and add them to LD_LIBRARY_PATH) or use "
                    "backend fairseq on this GPU."
                ) from error
            raise ModelDirError(f"{ct2_dir}: CTranslate2 cannot load this model on {device}: {message}") from error
        self.compute_type = self.translator.compute_type

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        cfg = self.config
        results = self.translator.translate_batch(
            batch,
            beam_size=cfg.beam_size,
            num_hypotheses=cfg.nbest,
            length_penalty=1.0,  # score = log-prob sum / length (EOS included): same as fairseq's
            return_scores=True,
            # CT2 otherwise blocks EOS at the first step before the softmax while fairseq does it after,
            # which shifts scores; 0 makes both backends score the same hypotheses identically.
            min_decoding_length=0,
            max_decoding_length=cfg.max_decoding_length,
            max_input_length=0,  # inputs are already capped by max_source_tokens; never truncate silently
            max_batch_size=cfg.max_batch_tokens,
            batch_type="tokens",
        )
        return [[RawHypothesis(list(h), float(s)) for h, s in zip(r.hypotheses, r.scores, strict=True)]
                for r in results]

    def recover(self) -> None:
        """CT2 frees its per-batch buffers itself; nothing to do."""
