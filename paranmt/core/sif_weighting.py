"""Principal-component removal of SIF (Arora et al. 2017): the top singular vectors of the uncentred sentence
matrix, and their projections removed from sentence vectors."""

from __future__ import annotations

import numpy as np


def _canonical_sign(components: np.ndarray) -> np.ndarray:
    """Singular vectors are defined up to sign; make the largest-magnitude entry positive (stable ids)."""
    out = components.copy()
    for row in out:
        if row[np.argmax(np.abs(row))] < 0:
            row *= -1
    return out


def uncentred_components(matrix: np.ndarray, k: int) -> np.ndarray:
    """The top ``k`` right singular vectors (``k x d``, float64, unit rows) of the **uncentred** ``n x d`` matrix.

    As in the SIF paper's code (Arora et al. 2017, ``TruncatedSVD`` on the raw sentence matrix): no mean is
    subtracted. Computed from the ``d x d`` Gram matrix in float64 (the same directions as an SVD of the ``n x d``
    matrix at a fraction of the cost); signs are canonical (largest-magnitude entry positive).
    """
    fitted = np.asarray(matrix, dtype=np.float64)
    if fitted.ndim != 2:
        raise ValueError(f"expected an n x d matrix, got shape {fitted.shape}")
    eigenvalues, eigenvectors = np.linalg.eigh(fitted.T @ fitted)
    top = eigenvectors[:, np.argsort(eigenvalues)[::-1][:k]].T
    return _canonical_sign(np.ascontiguousarray(top))


def remove_projections(vectors: np.ndarray, components: np.ndarray) -> np.ndarray:
    """``v - sum_i u_i u_i^T v`` for each row ``v`` of ``vectors`` (float64, modified in place and returned), one
    component after the other. einsum's own loops, not BLAS: a row's result never depends on the batch it came in."""
    for component in components:
        vectors -= np.einsum("nd,d->n", vectors, component)[:, None] * component
    return vectors
