"""The corpus report's defaults (:mod:`pipeline.analysis.corpus_report` builds it). They load nothing, so
``paranmt report --help`` shows them without NumPy or Arrow."""

from __future__ import annotations

DEFAULT_MAX_PARSE = 2000  # rows of the seeded sample parsed for parse entropy (0: none)
