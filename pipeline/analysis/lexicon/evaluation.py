"""The lexicon's word-similarity evaluation: Spearman's rho of its scores against ``word1 word2 score`` sets (the
paper's protocol scores unseen pairs 0; the rho on the covered pairs is given beside it)."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from paranmt.core.correlation import spearman
from pipeline.analysis.lexicon.counting import LexiconError
from pipeline.analysis.lexicon.query import lookup_pairs

__all__ = ["WordSimResult", "evaluate_wordsim", "format_results", "load_wordsim"]


def load_wordsim(path: str | os.PathLike, lowercase: bool = True) -> tuple[list[str], list[str], np.ndarray]:
    """A ``word1 word2 score`` file (tabs or spaces; CRLF line ends are fine)."""
    path = Path(path)
    if not path.is_file():
        raise LexiconError(f"word-similarity file {path} not found")
    first, second, scores = [], [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) < 3:
            raise LexiconError(f"{path}:{number}: expected 'word1 word2 score', got {line!r}")
        try:
            score = float(parts[2])
        except ValueError:
            if number == 1:
                continue  # a header line
            raise LexiconError(f"{path}:{number}: score {parts[2]!r} is not a number") from None
        a, b = (parts[0].lower(), parts[1].lower()) if lowercase else (parts[0], parts[1])
        first.append(a)
        second.append(b)
        scores.append(score)
    if not scores:
        raise LexiconError(f"{path}: no word pairs")
    return first, second, np.asarray(scores, np.float64)


@dataclass(frozen=True)
class WordSimResult:
    """Spearman's rho of one score against one word-similarity set."""

    name: str
    score: str
    pairs: int
    covered: int
    rho_all: float  # unseen pairs scored 0 (the paper's protocol)
    rho_covered: float  # only pairs the lexicon has

    @property
    def coverage(self) -> float:
        return self.covered / self.pairs if self.pairs else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"set": self.name, "score": self.score, "pairs": self.pairs, "covered": self.covered,
                "coverage": round(self.coverage, 4), "rho_all": self.rho_all, "rho_covered": self.rho_covered}


def evaluate_wordsim(lexicon: pa.Table | str | os.PathLike, path: str | os.PathLike, name: str | None = None,
                     scores: Sequence[str] = ("pmi_cross", "pmi_adj"), min_joint: int = 1) -> list[WordSimResult]:
    """Spearman's rho of each lexicon score against a word-similarity set: with unseen pairs scored 0, and on
    the covered pairs only (a pair is looked up as (word1, word2); the table holds both orders)."""

    first, second, gold = load_wordsim(path)
    found = lookup_pairs(lexicon, first, second, scores, min_joint)
    covered = ~np.isnan(found[scores[0]])
    name = name or Path(path).stem
    results = []
    for score in scores:
        values = found[score]
        rho_all = spearman(np.where(covered, values, 0.0), gold)
        rho_cov = spearman(values[covered], gold[covered]) if covered.sum() >= 3 else math.nan
        results.append(WordSimResult(name, score, len(gold), int(covered.sum()), rho_all, rho_cov))
    return results


def format_results(results: Sequence[WordSimResult]) -> str:
    lines = [f"{'set':<22}{'score':<11}{'pairs':>6}{'covered':>9}{'cov%':>7}{'rho(0)':>9}{'rho(cov)':>10}"]
    for r in results:
        lines.append(f"{r.name:<22}{r.score:<11}{r.pairs:>6}{r.covered:>9}{100 * r.coverage:>6.1f}%"
                     f"{100 * r.rho_all:>9.1f}{100 * r.rho_covered:>10.1f}")
    return "\n".join(lines)
