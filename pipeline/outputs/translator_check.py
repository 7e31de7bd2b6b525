"""Was the translator strong enough for this input? A verdict from the run's own numbers, for the summary.

The paper's selection is relative: it keeps the top deciles however good the back-translations are, so a weak
translator (a small model on text unlike its training data) fills ``train/`` with pairs that are not paraphrases,
and the counts look as usual. :func:`translator_check` reads two signals from the written ``pairs/`` -- the share
of back-translations under the translation-score floor and the share of pairs that share no word trigram with
their reference -- and, when both reach their limits, returns a hint naming a stronger model and the measured
opt-in floors. The limits are calibrated on the bundled model against judged ``train/`` pairs (docs/filters.md,
"Does the translator fit this input?"). It only reads the files: no output row changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow.compute as pc
import pyarrow.parquet as pq
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from paranmt.core.pair_schema import REASON, TRANSLATION_SCORE, TRIGRAM_OVERLAP, Reason

__all__ = ["FLOOR", "MAX_BELOW_FLOOR", "MAX_NO_TRIGRAM", "MIN_PAIRS", "translator_check", "weak_hint"]

# The opt-in translation-score floor docs/filters.md measured (mean log-probability per token; e^-1 = 0.37).
FLOOR = -1.0
# The verdict's limits, calibrated on the bundled model (benchmarks/studies/translator_check_calibration.py): the
# below-floor limit sits under every set whose judged train/ was mostly not paraphrases and well above the sample;
# the trigram limit above well-translated captions, so low scores alone (a model whose scores run low) say nothing.
MAX_BELOW_FLOOR = 0.05
MAX_NO_TRIGRAM = 0.25
# Fewer scored pairs than this: shares too noisy for a verdict (docs/filters.md: how often text like the sample's
# would reach the limit by chance).
MIN_PAIRS = 200

_BINS = np.linspace(-20.0, 0.0, 2001)  # translation-score histogram, 0.01 wide: quantiles without holding the column
_QUANTILES = (0.1, 0.5, 0.9)

STRONGER = ("use a stronger model for this text (docs/translate-models.md: bring an OPUS-MT model or train one on "
            "in-domain bitext) or the measured absolute floors (docs/filters.md): --set "
            "'select.scores=[sentence_transformer]' --set select.rank_by=null --set "
            f"'select.score_ranges={{st_cosine: {{min: 0.8}}, translation_score: {{min: {FLOOR}}}}}'")


def _quantiles(histogram: np.ndarray) -> dict[str, float]:
    """``p10``, ``p50``, ``p90`` of the histogram: the lower edge of the bin where each falls (0.01 wide)."""
    cumulative = np.cumsum(histogram)
    return {f"p{round(q * 100)}": round(float(_BINS[int(np.searchsorted(cumulative, q * cumulative[-1]))]), 2)
            for q in _QUANTILES}


def translator_check(pairs_paths: Sequence[str]) -> dict[str, Any]:
    """The verdict over ``pairs/`` (its shards): the pairs looked at (scored, not copies), the translation-score
    quantiles, the shares under :data:`FLOOR` and without a shared trigram, the copy rate, ``weak`` and a ``hint``
    (None unless weak). Copies are left out of the shares: they are the model's own training data, not a sign of
    weakness (their rate is reported)."""
    histogram = np.zeros(len(_BINS) - 1, dtype=np.int64)
    pairs = copies = scored = below = no_trigram = 0
    for path in pairs_paths:
        with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
            table = pq.read_table(handle, columns=[TRANSLATION_SCORE, TRIGRAM_OVERLAP, REASON])
        pairs += table.num_rows
        is_copy = np.asarray(pc.fill_null(pc.equal(table.column(REASON).cast("string"), Reason.COPY.value), False))
        copies += int(is_copy.sum())
        score = table.column(TRANSLATION_SCORE).to_numpy(zero_copy_only=False).astype(np.float64)
        overlap = table.column(TRIGRAM_OVERLAP).to_numpy(zero_copy_only=False).astype(np.float64)
        use = ~is_copy & np.isfinite(score) & np.isfinite(overlap)
        score, overlap = score[use], overlap[use]
        scored += len(score)
        below += int((score < FLOOR).sum())
        no_trigram += int((overlap == 0).sum())
        histogram += np.histogram(np.clip(score, _BINS[0], _BINS[-1]), _BINS)[0]  # below -20 counts as -20
    check: dict[str, Any] = {"pairs": pairs, "scored": scored, "copy_rate": round(copies / pairs, 4) if pairs else None,
                             "floor": FLOOR, "thresholds": {"below_floor": MAX_BELOW_FLOOR,
                                                            "no_shared_trigram": MAX_NO_TRIGRAM}}
    if scored < MIN_PAIRS:
        return {**check, "weak": None, "hint": None, "note": f"fewer than {MIN_PAIRS} scored pairs: no verdict"}
    shares = {"below_floor": round(below / scored, 4), "no_shared_trigram": round(no_trigram / scored, 4)}
    weak = shares["below_floor"] >= MAX_BELOW_FLOOR and shares["no_shared_trigram"] >= MAX_NO_TRIGRAM
    return {**check, TRANSLATION_SCORE: _quantiles(histogram), **shares, "weak": weak,
            "hint": weak_hint(shares) if weak else None}


def weak_hint(shares: dict[str, float]) -> str:
    """The one line a weak run prints (and keeps in ``summary.json``)."""
    return (f"the translator looks too weak for this input: {shares['below_floor']:.0%} of the back-translations "
            f"score under {FLOOR} and {shares['no_shared_trigram']:.0%} of the pairs share no word trigram with "
            f"their reference (limits {MAX_BELOW_FLOOR:.0%} and {MAX_NO_TRIGRAM:.0%}), as in the runs "
            f"docs/filters.md measured where most of train/ was not paraphrases; {STRONGER}")
