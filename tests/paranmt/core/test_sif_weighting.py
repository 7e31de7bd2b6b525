"""SIF's principal components (Arora et al. 2017): the top right singular vectors of the uncentred matrix, checked
against numpy's SVD, with canonical signs; their projections removed, row by row, whatever the batch."""

from __future__ import annotations

import numpy as np
import pytest

from paranmt.core.sif_weighting import remove_projections, uncentred_components


def _matrix(n: int = 200, d: int = 12, seed: int = 0) -> np.ndarray:
    """Sentence-like vectors: a common offset (what SIF removes) plus noise of decreasing scale per dimension."""
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(n, d)) * np.linspace(2.0, 0.1, d) + rng.normal(size=d)).astype(np.float32)


def test_components_are_the_top_right_singular_vectors_of_the_uncentred_matrix():
    matrix = _matrix()
    components = uncentred_components(matrix, 3)
    assert components.shape == (3, 12) and components.dtype == np.float64
    reference = np.linalg.svd(matrix.astype(np.float64), full_matrices=False)[2][:3]  # no mean subtracted
    for got, expected in zip(components, reference, strict=True):
        assert abs(got @ expected) == pytest.approx(1.0, abs=1e-9)  # the same direction, up to sign
    np.testing.assert_allclose(components @ components.T, np.eye(3), atol=1e-12)
    centred = np.linalg.svd(matrix - matrix.mean(0), full_matrices=False)[2][0]
    assert abs(components[0] @ centred) < 0.9  # centring would have found another first direction


def test_signs_are_canonical_so_ids_are_stable():
    components = uncentred_components(_matrix(), 4)
    for row in components:
        assert row[np.argmax(np.abs(row))] > 0
    np.testing.assert_array_equal(uncentred_components(-_matrix(), 4), components)  # a flipped matrix: same rows


def test_only_a_matrix_has_components():
    with pytest.raises(ValueError, match=r"expected an n x d matrix, got shape \(5,\)"):
        uncentred_components(np.ones(5), 1)


def test_removal_leaves_vectors_orthogonal_to_each_component_in_place():
    matrix = _matrix().astype(np.float64)
    components = uncentred_components(matrix, 2)
    vectors = matrix.copy()
    out = remove_projections(vectors, components)
    assert out is vectors  # modified in place
    np.testing.assert_allclose(out @ components.T, 0.0, atol=1e-10)
    # v - sum_i u_i u_i^T v, the obvious way (orthonormal components: one projection matrix)
    expected = matrix - matrix @ components.T @ components
    np.testing.assert_allclose(out, expected, atol=1e-10)
    assert remove_projections(matrix.copy(), components[:0]).tolist() == matrix.tolist()  # no component: unchanged


def test_a_rows_result_does_not_depend_on_its_batch():
    matrix = _matrix().astype(np.float64)
    components = uncentred_components(matrix, 2)
    whole = remove_projections(matrix.copy(), components)
    for start, stop in ((0, 1), (5, 37), (199, 200)):
        np.testing.assert_array_equal(remove_projections(matrix[start:stop].copy(), components), whole[start:stop])
