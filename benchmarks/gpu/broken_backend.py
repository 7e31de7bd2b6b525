"""A backend that breaks on its device mid-run, for the fail-fast check of ``benchmarks/gpu/gpu_suite.py``.

:class:`DeviceFault` (``translate.backend=benchmarks.gpu.broken_backend:DeviceFault``) is CTranslate2 on the configured
device that translates the load-time probe batch, then raises the error a GPU that has gone bad raises on every
later batch: what a run must stop on within seconds, with one line, instead of retrying sentence by sentence.
"""

from __future__ import annotations

from configs.schema import TranslateConfig
from translate.card import ModelDir
from translate.ct2_backend import CTranslate2Backend
from translate.translator import RawHypothesis

DEVICE_ERROR = "CUDA failed with error an illegal memory access was encountered"


class DeviceFault:
    """CTranslate2 for the probe batch, then :data:`DEVICE_ERROR` on every batch."""

    name = "device-fault"

    def __init__(self, model_dir: ModelDir, config: TranslateConfig, device: str) -> None:
        self._backend = CTranslate2Backend(model_dir, config, device)
        self.device, self.compute_type = device, self._backend.compute_type
        self._probed = False

    def decode(self, batch: list[list[str]]) -> list[list[RawHypothesis]]:
        if self._probed:
            raise RuntimeError(DEVICE_ERROR)
        self._probed = True
        return self._backend.decode(batch)

    def recover(self) -> None:
        """Nothing to free."""
