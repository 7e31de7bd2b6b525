"""Reading helpers shared by the ingest tests."""

from __future__ import annotations

from pathlib import Path

from pipeline.inputs.reading import read_task

CAP, KEEP = 10_000, 64


def read_all(plan, cap: int = CAP, keep: int = KEEP) -> list[dict]:
    """Every raw record of a read plan, task after task."""
    return [r for task in plan.tasks for r in read_task(task, cap, keep)]


def write_file(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
