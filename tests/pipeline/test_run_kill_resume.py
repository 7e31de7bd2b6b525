"""Kill anywhere, resume: ``paranmt run`` is SIGKILLed (its whole process group) at chosen points of a run on 1,200
toy pairs (12 translation chunks), rerun with the same arguments, and must end with the shards of an uninterrupted
run — no duplicates, nothing left behind — having reused the translations finished before the kill.

Kill points: before translation starts, and after k translated chunks are in the cache (k drawn with a fixed
seed), so each kill lands inside the back-translation, the stage that dominates a real run. The default suite
kills twice; ``-m slow`` five times. Figures are printed (``-s``)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from paranmt.core.run_layout import CARD_FILE as CARD
from tests.support.repo import REPO_ROOT

CHUNK_LINES = 100
ROWS = 1_200  # 12 chunks: room for a kill well inside the translation, and each run a few seconds


def _command(cs: Path, en: Path, out: Path, model: Path) -> list[str]:
    return [sys.executable, "-m", "paranmt", "run", "--cs", str(cs), "--en", str(en), "--out", str(out),
            "--model", str(model), "--set", "translate.backend=ctranslate2", "--set", "translate.threads=1",
            "--set", "translate.beam_size=12", "--set", f"pipeline.cache_chunk_lines={CHUNK_LINES}",
            "--runner", "FnApiRunner", "--quiet"]


def _parts(out: Path) -> list[Path]:
    """Translated chunks in the cache (written atomically: temporary files do not end in .parquet)."""
    return sorted((out / "cache").rglob("*.parquet"))


def _outputs(out: Path) -> dict[str, bytes]:
    """Every output file but the cache, the summary and the dataset card (whose cache counts differ by design)."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and "cache" not in p.relative_to(out).parts and p.name not in ("summary.json", CARD)}


def _card_but_cache_counts(out: Path) -> list[str]:
    """The dataset card's lines but the one that says how much of the run came from the translation cache and the
    title (by default the run folder's name)."""
    return [line for line in (out / CARD).read_text(encoding="utf-8").splitlines()
            if not line.startswith(("Translation cache:", "pretty_name:", "# "))]


def _differences(out: Path, expected: Path, files: dict[str, bytes], expected_files: dict[str, bytes]) -> str:
    """Which files differ and, for Parquet shards, a few rows found on one side only: a rare failure says what."""
    said = []
    for name in sorted(set(files) | set(expected_files)):
        if files.get(name) == expected_files.get(name):
            continue
        if name not in files or name not in expected_files:
            said.append(f"{name}: {'missing' if name not in files else 'unexpected'}")
            continue
        if not name.endswith(".parquet"):
            said.append(f"{name}: differs")
            continue
        got, want = (pq.read_table(folder / name).to_pylist() for folder in (out, expected))
        if got == want:
            said.append(f"{name}: the same rows in the same order (the file's metadata differs)")
            continue
        extra = [row for row in got if row not in want][:2]
        lost = [row for row in want if row not in got][:2]
        said.append(f"{name}: {len(got)} rows vs {len(want)}; only resumed {extra}; only uninterrupted {lost}")
    return "; ".join(said)


def _kill_when(command: list[str], ready, timeout: float = 300) -> str:
    """Start the command in its own process group, SIGKILL the group once ``ready()`` holds; what it was doing."""
    process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + timeout
    while process.poll() is None and not ready() and time.monotonic() < deadline:
        time.sleep(0.02)
    if process.poll() is not None:
        return "finished before the kill"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    return "killed"


@pytest.fixture(scope="module")
def bitext(tmp_path_factory, toy_corpus):
    directory = tmp_path_factory.mktemp("kill-bitext")
    cs, en = (side[:ROWS] for side in toy_corpus)
    (directory / "toy.cs").write_text("\n".join(cs) + "\n", encoding="utf-8")
    (directory / "toy.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    return directory / "toy.cs", directory / "toy.en"


@pytest.fixture(scope="module")
def reference(tmp_path_factory, bitext, toy_model):
    out = tmp_path_factory.mktemp("kill-reference") / "run"
    subprocess.run(_command(*bitext, out, toy_model), cwd=REPO_ROOT, check=True, capture_output=True)
    return _outputs(out), json.loads((out / "summary.json").read_text()), out


def _kill_and_resume(tmp_path: Path, bitext, toy_model, reference, parts_at_kill: int) -> dict:
    out = tmp_path / f"run-k{parts_at_kill}"
    command = _command(*bitext, out, toy_model)
    if parts_at_kill == 0:  # before translation: the launcher is planning, fitting the scorer or starting Beam
        started = time.monotonic()
        state = _kill_when(command, lambda: time.monotonic() - started > 3.0)
    else:
        state = _kill_when(command, lambda: len(_parts(out)) >= parts_at_kill)
    on_disk = len(_parts(out))
    assert not (out / "_SUCCESS").exists() or state != "killed"
    subprocess.run(command, cwd=REPO_ROOT, check=True, capture_output=True)
    summary = json.loads((out / "summary.json").read_text())
    files, expected_summary = _outputs(out), reference[1]
    reused = summary["metrics"].get("translation_cache_hit_rows", 0)
    figures = {"kill": state, "chunks_cached_at_kill": on_disk, "translations_reused": reused,
               "translated_again": summary["metrics"].get("translation_cache_miss_rows", 0),
               "identical_output": files == reference[0]}
    print(json.dumps(figures))
    assert not (out / "_staging").exists() and (out / "_SUCCESS").exists()
    assert files == reference[0], ("the resumed run's shards differ from the uninterrupted run's: "
                                   + _differences(out, reference[2], files, reference[0]))
    assert _card_but_cache_counts(out) == _card_but_cache_counts(reference[2])  # it differs in what says it resumed
    assert {k: summary[k] for k in ("read", "pairs", "rejected", "deadletter", "train")} == \
        {k: expected_summary[k] for k in ("read", "pairs", "rejected", "deadletter", "train")}
    translated_total = expected_summary["metrics"]["translation_cache_miss_rows"]
    assert reused + figures["translated_again"] == translated_total  # each translation once: reused or redone
    assert reused >= on_disk * CHUNK_LINES - 10  # every chunk cached at the kill was reused (a few rows of a
    # chunk may have been rejected before translation, so a chunk can hold slightly fewer than CHUNK_LINES rows)
    return figures


@pytest.mark.parametrize("parts_at_kill", [0, 8])
def test_kill_and_resume_gives_the_uninterrupted_output(tmp_path, bitext, toy_model, reference, parts_at_kill):
    figures = _kill_and_resume(tmp_path, bitext, toy_model, reference, parts_at_kill)
    if parts_at_kill:
        assert figures["translations_reused"] >= parts_at_kill * CHUNK_LINES - 10


@pytest.mark.slow
def test_kill_at_random_points(tmp_path, bitext, toy_model, reference):
    chunks = len(_parts(reference[2]))
    for k in sorted(random.Random(7).sample(range(1, chunks), 5)):
        _kill_and_resume(tmp_path, bitext, toy_model, reference, k)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_during_translation_is_one_line_and_resumes(tmp_path, bitext, toy_model, reference, sig):
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) or SIGTERM while chunks are being translated:
    one line saying what is kept, exit 130 / 143, no traceback (it used to be three RunInference tracebacks and a
    segmentation fault); the same command then resumes to the uninterrupted run's shards. The signal is sent once
    two chunks are in the cache (watched on the file system), so it lands inside the back-translation."""
    out = tmp_path / f"run-{sig.name}"
    command = _command(*bitext, out, toy_model)
    process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    deadline = time.monotonic() + 300
    while process.poll() is None and len(_parts(out)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before it could be interrupted"
    seen = len(_parts(out))
    if sig == signal.SIGINT:
        os.killpg(process.pid, sig)
    else:
        os.kill(process.pid, sig)
    _, stderr = process.communicate(timeout=120)
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("WARNING:")]
    assert process.returncode == 128 + sig, stderr
    assert "Traceback" not in stderr and len(lines) == 1, stderr
    kept = int(lines[0].split("; ", 1)[1].split()[0])
    assert lines[0] == (f"interrupted; {kept} chunk{'' if kept == 1 else 's'} translated "
                        f"{'is' if kept == 1 else 'are'} kept in {out / 'cache'} — rerun the same command to resume")
    assert seen <= kept <= len(_parts(out))  # what it said is on disk (a chunk may land while it exits)
    assert not (out / "_SUCCESS").exists()
    subprocess.run(command, cwd=REPO_ROOT, check=True, capture_output=True)
    summary = json.loads((out / "summary.json").read_text())
    assert _outputs(out) == reference[0], "the resumed run's shards differ from the uninterrupted run's"
    assert summary["metrics"].get("translation_cache_hit_rows", 0) >= kept * CHUNK_LINES - 10
