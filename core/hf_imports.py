"""Importing the Hugging Face stack (sentence-transformers, transformers, datasets) where a broken torchaudio is
installed.

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
import sys
from types import ModuleType

__all__ = ["hide_broken_torchaudio", "import_sentence_transformers"]


def hide_broken_torchaudio() -> bool:
    """Mark torchaudio absent if it is installed but cannot be imported; ``True`` when it was hidden."""
    if "torchaudio" in sys.modules:
        return sys.modules["torchaudio"] is None
    try:
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
