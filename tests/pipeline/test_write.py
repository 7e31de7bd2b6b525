"""Stage 7: shard assignment is a stable function of the id."""

from __future__ import annotations

import pytest

from pipeline.write import shard_of

pytestmark = pytest.mark.timeout(120)


def test_shards_are_stable():
    assert [shard_of(f"x:L{i:012d}", 4) for i in range(5)] == [shard_of(f"x:L{i:012d}", 4) for i in range(5)]
    assert {shard_of(f"x:L{i:012d}", 4) for i in range(100)} == {0, 1, 2, 3}
