"""Timing as the benchmarks do it: wall (``perf_counter``) and CPU (``process_time``) seconds of a piece of work,
repeated or in interleaved rounds (each round runs every case once, so the machine's load falls on all alike), and
summed up as the best (the least disturbed run), the median, and the median of the per-round ratios."""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = ["Times", "interleaved", "marginal_rate", "median_ratio", "repeat", "spread", "timed"]

T = TypeVar("T")


@dataclass
class Times:
    """The wall and CPU seconds of each run of one piece of work."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def run(self, work: Callable[[], T]) -> T:
        """``work()``, its seconds appended; its value returned."""
        cpu, started = time.process_time(), time.perf_counter()
        value = work()
        self.wall.append(time.perf_counter() - started)
        self.cpu.append(time.process_time() - cpu)
        return value

    @property
    def best(self) -> float:
        return min(self.wall)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def total(self) -> float:
        return sum(self.wall)

    @property
    def cpu_per_wall(self) -> float:
        """CPU seconds over wall seconds: ~1 on one busy core."""
        return sum(self.cpu) / max(self.total, 1e-9)


@contextlib.contextmanager
def timed() -> Iterator[Times]:
    """The seconds of the ``with`` block, appended to the :class:`Times` it yields when the block ends."""
    times = Times()
    cpu, started = time.process_time(), time.perf_counter()
    yield times
    times.wall.append(time.perf_counter() - started)
    times.cpu.append(time.process_time() - cpu)


def repeat(work: Callable[[], object], repeats: int) -> Times:
    """``work()`` run ``repeats`` times, each timed."""
    times = Times()
    for _ in range(repeats):
        times.run(work)
    return times


def interleaved(cases: Mapping[str, Callable[[], object]], rounds: int) -> dict[str, Times]:
    """Every case run once a round, in the order given, for ``rounds`` rounds."""
    times = {name: Times() for name in cases}
    for _ in range(rounds):
        for name, work in cases.items():
            times[name].run(work)
    return times


def median_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> float:
    """The median of the per-round ratios: a speed-up that a round's load, shared by both, cancels out of."""
    return statistics.median(a / b for a, b in zip(numerators, denominators, strict=True))


def marginal_rate(small: tuple[float, float], large: tuple[float, float]) -> float | None:
    """Items per second between two runs at two sizes, each ``(items, seconds)``: what an item more costs once a
    fixed start-up is paid; None unless the larger run took longer."""
    extra = large[1] - small[1]
    return (large[0] - small[0]) / extra if extra > 0 else None


def spread(values: Sequence[float]) -> float:
    """Round-to-round spread: (max − min) / median."""
    return (max(values) - min(values)) / statistics.median(values)
