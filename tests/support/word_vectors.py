"""GloVe 6B 50d from the kumo package (80 MB), loaded once per test session for the tests that need the real
vectors: the loader's own tests and the scorers built on them."""

from __future__ import annotations

import functools

from paranmt.core.word_vectors import WordVectors, load_kumo


@functools.lru_cache(maxsize=1)
def glove() -> WordVectors:
    return load_kumo()
