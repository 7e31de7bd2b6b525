"""``paranmt run`` with a backend that cannot translate: one ``error:`` line naming the cause, exit status
2, and nothing written as final -- whether the backend fails its probe batch at load or starts failing mid-run. The
failing backend is injected into the in-process runner (the shared decoder serves from a thread of this process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.gpu.broken_backend import DEVICE_ERROR
from pipeline.launcher.job_log import JOB_LOG_FILE
from pipeline.run import main
from translate.ct2_backend import CTranslate2Backend
from translate.cuda_libraries import CUBLAS_FIX

CUBLAS_MISSING = RuntimeError("Library libcublas.so.12 is not found or cannot be loaded")  # CTranslate2's words
CAUSE = f"RuntimeError: {CUBLAS_MISSING} -- {CUBLAS_FIX}"


@pytest.fixture(scope="module")
def bitext(tmp_path_factory, toy_corpus) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("failing-backend")
    cs, en = (side[-200:] for side in toy_corpus)  # held out from the toy model's training
    (folder / "toy.cs").write_text("\n".join(cs) + "\n", encoding="utf-8")
    (folder / "toy.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    return folder / "toy.cs", folder / "toy.en"


def _one_error_line(capsys, bitext, toy_model, out: Path) -> str:
    code = main(["--cs", str(bitext[0]), "--en", str(bitext[1]), "--out", str(out), "--model", str(toy_model),
                 "--backend", "ctranslate2", "--device", "cpu", "--threads", "1", "--runner", "FnApiRunner",
                 "--quiet"])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert not (out / "_SUCCESS").exists() and not (out / "summary.json").exists()
    assert not any((out / name).exists() and any((out / name).iterdir()) for name in ("pairs", "train", "rejected"))
    return lines[0]


def test_a_backend_that_cannot_translate_its_probe_stops_the_run(tmp_path, capsys, monkeypatch, bitext, toy_model):
    def no_cublas(self, batch):
        raise CUBLAS_MISSING

    monkeypatch.setattr(CTranslate2Backend, "decode", no_cublas)
    line = _one_error_line(capsys, bitext, toy_model, tmp_path / "out")
    assert f"error: the ctranslate2 backend loads on cpu but cannot translate a probe batch: {CAUSE}" in line


def test_a_backend_that_stops_translating_mid_run_stops_the_run(tmp_path, capsys, monkeypatch, bitext, toy_model):
    """The probe batch translates; every batch after it fails (through the shared decoder's ``decode`` or the
    backend's own ``submit``)."""
    real = CTranslate2Backend.decode
    calls: list[int] = []

    def breaks_after_the_probe(self, batch):
        calls.append(len(batch))
        if len(calls) == 1:
            return real(self, batch)
        raise CUBLAS_MISSING

    def no_cublas(self, batch):
        raise CUBLAS_MISSING

    monkeypatch.setattr(CTranslate2Backend, "decode", breaks_after_the_probe)
    monkeypatch.setattr(CTranslate2Backend, "submit", no_cublas)
    line = _one_error_line(capsys, bitext, toy_model, tmp_path / "out")
    assert line.startswith("error: translation stopped: the ctranslate2 backend on cpu cannot translate (a library "
                           f"is missing): {CAUSE}"), line
    # the probe, then the batches queued before the first failure was read (up to four in flight at the shared
    # decoder): no halves, no sentence-by-sentence retries
    assert len(calls) <= 1 + 4 and min(calls) > 1, calls


class NoCublasBackend:
    """A backend of a user's (by import path, so Beam's worker processes build it too) whose every batch fails the
    way CTranslate2 does without cuBLAS: its probe batch fails in the worker that loads it."""

    name = "no-cublas"

    def __init__(self, model_dir, config, device) -> None:
        self.device = device

    def decode(self, batch):
        raise CUBLAS_MISSING

    def recover(self) -> None:
        """Nothing to free."""


def _terminal_and_log(capfd, code: int, out: Path) -> tuple[list[str], str]:
    """The lines the terminal got (file descriptor 2 captured: what worker processes write lands there too) and
    the job's log that the one error line names."""
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and lines and lines[-1].startswith("error: "), err
    assert len(lines) <= 5 and "Traceback" not in err and sum(line.startswith("error:") for line in lines) == 1, err
    log = out / JOB_LOG_FILE
    assert lines[-1].endswith(f"(the job's full log: {log})"), lines[-1]
    assert not (out / "_SUCCESS").exists() and not (out / "summary.json").exists()
    return lines, log.read_text(encoding="utf-8")


def test_a_broken_backend_in_a_worker_process_is_the_same_one_line(tmp_path, capfd, bitext, toy_model):
    out = tmp_path / "out"
    code = main(["--cs", str(bitext[0]), "--en", str(bitext[1]), "--out", str(out), "--model", str(toy_model),
                 "--backend", f"{__name__}:NoCublasBackend", "--device", "cpu", "--runner",
                 "FnApiRunner", "--direct_running_mode", "multi_processing", "--direct_num_workers", "2", "--quiet"])
    lines, log = _terminal_and_log(capfd, code, out)
    assert lines[-1].startswith(f"error: the no-cublas backend loads on cpu but cannot translate a probe batch: "
                                f"{CAUSE}"), lines[-1]
    assert "Traceback" in log  # the workers' full text is in the log the line names


@pytest.mark.parametrize("workers", [
    pytest.param([], id="in-process"),
    pytest.param(["--direct_running_mode", "multi_processing", "--direct_num_workers", "2"], id="two-workers",
                 marks=pytest.mark.slow),  # a minute; the probe-failure test above runs two workers by default
])
def test_a_device_that_fails_mid_run_ends_the_run_in_one_line(tmp_path, capfd, bitext, toy_model, workers):
    """The broken-backend stand-in (benchmarks/gpu/broken_backend.py): the probe translates, every later batch raises a
    device error. The terminal gets the one error line (and the progress line), the job's log the tracebacks."""
    out = tmp_path / "out"
    code = main(["--cs", str(bitext[0]), "--en", str(bitext[1]), "--out", str(out), "--model", str(toy_model),
                 "--set", "translate.backend=benchmarks.gpu.broken_backend:DeviceFault", "--device", "cpu",
                 "--runner", "FnApiRunner", *workers])
    lines, log = _terminal_and_log(capfd, code, out)
    assert lines[-1].startswith("error: translation stopped: the device-fault backend on cpu cannot translate (a "
                                f"device error): RuntimeError: {DEVICE_ERROR}"), lines[-1]
    assert DEVICE_ERROR in log

