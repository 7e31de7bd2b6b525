"""SIF's settings (Arora et al. 2017): the weight parameter a's default (the schema's ``score.sif_a``) and whose
principal components a SIF model removes. They load nothing, so ``paranmt sif --help`` and ``paranmt evaluate
--help`` show them at once."""

from __future__ import annotations

from typing import Literal, get_args

SIF_A = 1e-3  # each word weighted a / (a + p(w))
# Whose components are removed: the reference set's, saved with the model (reference); each batch's own (batch);
# none.
PcMode = Literal["reference", "batch", "none"]
PC_MODES: tuple[str, ...] = get_args(PcMode)
