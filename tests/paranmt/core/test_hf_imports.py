"""The guard for fairseq-fixed's CUDA torchaudio beside the CPU torch: found from the installed
packages' versions without importing anything, hidden from transformers, and named with its one-line fix."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys

import pytest

from paranmt.core import hf_imports


def _versions(monkeypatch, **installed: str) -> None:
    def version(name: str) -> str:
        if name not in installed:
            raise importlib.metadata.PackageNotFoundError(name)
        return installed[name]

    monkeypatch.setattr(hf_imports.importlib.metadata, "version", version)


@pytest.mark.parametrize(("audio", "torch", "broken"), [
    ("2.11.0", "2.13.0+cpu", True),       # what fairseq-fixed pulls in beside the README's torch
    ("2.13.0+cpu", "2.13.0+cpu", False),
    ("2.13.1", "2.13.0", False),          # patch releases go together
    ("0.13.1", "1.13.1+cu117", False),    # torchaudio 0.x goes with torch 1.x
    ("0.13.1", "2.13.0", True),
])
def test_a_torchaudio_for_another_torch_is_named_with_the_fix(monkeypatch, audio, torch, broken):
    _versions(monkeypatch, torchaudio=audio, torch=torch)
    problem = hf_imports.torchaudio_mismatch()
    assert (problem is not None) == broken
    if broken:
        assert f"torchaudio {audio}" in problem and torch in problem and "pip uninstall -y torchaudio" in problem
        assert "\n" not in problem


def test_no_torchaudio_is_no_problem(monkeypatch):
    _versions(monkeypatch, torch="2.13.0+cpu")
    assert hf_imports.torchaudio_mismatch() is None


def test_a_mismatched_torchaudio_is_hidden_without_importing_it(monkeypatch):
    _versions(monkeypatch, torchaudio="2.11.0", torch="2.13.0+cpu")
    saved = sys.modules.pop("torchaudio", None)
    imported = []
    real_import = hf_imports.importlib.import_module
    monkeypatch.setattr(hf_imports.importlib, "import_module",
                        lambda name, *a: imported.append(name) or real_import(name, *a))
    try:
        assert hf_imports.hide_broken_torchaudio() is True
        assert sys.modules["torchaudio"] is None and "torchaudio" not in imported
        assert importlib.util.find_spec("torchaudio") is None  # what transformers asks before importing it
    finally:
        sys.modules.pop("torchaudio", None)
        if saved is not None:
            sys.modules["torchaudio"] = saved


def test_every_command_starts_with_the_warning_where_torchaudio_is_broken(monkeypatch, capsys):
    from paranmt.cli import paranmt_command
    from paranmt.core import command_line

    monkeypatch.setattr(command_line, "torchaudio_mismatch", lambda: "torchaudio 2.11.0 is built for ...")
    with pytest.raises(SystemExit):
        paranmt_command.main(["export", "--help"])
    assert capsys.readouterr().err == "WARNING paranmt.core.command_line: torchaudio 2.11.0 is built for ...\n"
    monkeypatch.setattr(command_line, "torchaudio_mismatch", lambda: None)
    with pytest.raises(SystemExit):
        paranmt_command.main(["export", "--help"])
    assert capsys.readouterr().err == ""
