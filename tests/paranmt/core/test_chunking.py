"""Fixed-size chunks of an iterable: sizes, order, the short last chunk, and lazy reading."""

from __future__ import annotations

import itertools

import pytest

from paranmt.core.chunking import in_lists


@pytest.mark.parametrize(("n", "size"), [(0, 3), (1, 3), (6, 3), (7, 3), (5, 1), (4, 10)])
def test_chunks_are_consecutive_lists_of_size_with_a_shorter_last_one(n, size):
    chunks = list(in_lists(range(n), size))
    assert [item for chunk in chunks for item in chunk] == list(range(n))  # every item once, in order
    assert all(isinstance(chunk, list) for chunk in chunks)
    assert [len(chunk) for chunk in chunks] == [size] * (n // size) + ([n % size] if n % size else [])


def test_the_iterable_is_read_as_the_chunks_are_taken():
    """An endless generator is fine: a chunk comes out once its last item is read, no sooner and no later."""
    read: list[int] = []

    def counting():
        for i in itertools.count():
            read.append(i)
            yield i

    chunks = in_lists(counting(), 4)
    assert read == []
    assert next(chunks) == [0, 1, 2, 3] and read == [0, 1, 2, 3]
    assert next(chunks) == [4, 5, 6, 7] and read == list(range(8))


def test_each_chunk_is_a_new_list():
    first, second = in_lists("abcd", 2)
    first.append("x")
    assert second == ["c", "d"]
