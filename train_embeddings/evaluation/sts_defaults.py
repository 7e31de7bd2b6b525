"""The STS evaluation's defaults: the years of STS 2012-2016 and the sentences per encoder call. They load nothing,
so ``paranmt evaluate --help`` shows them without the evaluator's dependencies."""

from __future__ import annotations

STS_YEARS: tuple[int, ...] = (2012, 2013, 2014, 2015, 2016)
DEFAULT_BATCH_SIZE = 4096
