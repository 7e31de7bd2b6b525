"""The two sides of ``similarity(a, b)``, shared by the trained models and the SIF models."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["paired_cosine", "sentence_sides"]


def sentence_sides(a: str | Sequence[str], b: str | Sequence[str]) -> tuple[list[str], list[str]]:
    """Both sides as lists of sentences. A ``str`` is one sentence, never its characters; it is compared with
    every sentence of the other side. Two lists must have the same length (one score per pair)."""
    one_a, one_b = isinstance(a, str), isinstance(b, str)
    left = [a] if one_a else list(a)
    right = [b] if one_b else list(b)
    if len(left) != len(right) and not (one_a or one_b):
        raise ValueError(f"{len(left)} sentences against {len(right)}")
    return left, right


def paired_cosine(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Row-wise cosine (float32; 0 where a vector is zero); a one-row side is broadcast against the other."""
    x, y = np.broadcast_arrays(x.astype(np.float64), y.astype(np.float64))
    norms = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    dots = np.einsum("nd,nd->n", x, y)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0).astype(np.float32)
