"""Fixed-size chunks of an iterable: :func:`in_lists` (``itertools.batched`` from Python 3.12 on, as lists)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

Item = TypeVar("Item")


def in_lists(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """Consecutive lists of ``size`` items (the last one shorter), lazily: the iterable is read as it goes."""
    batch: list[Item] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
