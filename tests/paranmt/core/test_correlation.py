"""paranmt.core.correlation: Pearson and Spearman (average ranks for ties) by hand, and against scipy where it is
installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from paranmt.core.correlation import pearson, rankdata, spearman

try:
    from scipy import stats as scipy_stats
except ImportError:  # scipy is not a dependency of the project; the hand-computed values suffice
    scipy_stats = None

R_FIRST = 4.2 / math.sqrt(18.4)  # by hand: deviations (.8, -.2, .4, -1) and (2, -1, 1, -2)
RHO_TIES = 16.5 / math.sqrt(16.5 * 17.5)  # by hand, see test_correlations_by_hand


def test_correlations_by_hand() -> None:
    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    assert pearson(x, y) == pytest.approx(0.8)  # 8 / sqrt(10 * 10)
    assert spearman(x, y) == pytest.approx(0.8)
    assert pearson([1, 0, 0.6, -0.8], [4, 1, 3, 0]) == pytest.approx(R_FIRST)
    assert spearman([1, 0, 0.6, -0.8], [4, 1, 3, 0]) == pytest.approx(1.0)
    np.testing.assert_array_equal(rankdata([3.0, 1.0, 3.0, 2.0, 3.0]), [4, 1, 4, 2, 4])
    np.testing.assert_array_equal(rankdata([0.6, 0.6, 1, 1, -0.8]), [2.5, 2.5, 4.5, 4.5, 1])
    # ties on both sides: ranks (5.5, 2, 3.5, 1, 3.5, 5.5) vs (5, 2, 4, 1, 3, 6) → 16.5 / sqrt(16.5 * 17.5)
    assert spearman([1, 0, 0.6, -0.8, 0.6, 1], [4, 1, 3, 0, 2, 5]) == pytest.approx(RHO_TIES)
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))  # constant side: undefined, not an error
    assert math.isnan(spearman([1], [2]))
    with pytest.raises(ValueError):
        pearson([1, 2], [1, 2, 3])
    if scipy_stats is not None:
        rng = np.random.default_rng(0)
        a, b = rng.integers(0, 6, 200).astype(float), rng.normal(size=200)  # many ties in a
        assert pearson(a, b) == pytest.approx(scipy_stats.pearsonr(a, b)[0], abs=1e-12)
        assert spearman(a, b) == pytest.approx(scipy_stats.spearmanr(a, b)[0], abs=1e-12)
        np.testing.assert_allclose(rankdata(a), scipy_stats.rankdata(a))
