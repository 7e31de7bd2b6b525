"""The teacher of a ``static`` component: which sentence-transformers model, its model2vec distillation (the
table training starts from) and the cache both live in; :func:`import_model2vec` is the one guarded import of the
``static`` extra."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import numpy as np

from paranmt.core.hf_imports import hide_broken_torchaudio, minilm_directory
from train_embeddings.static.pieces import StaticVocab

__all__ = ["INSTALL_HINT", "STATIC", "default_teacher", "distill_teacher", "import_model2vec", "static_cache_dir",
           "teacher_id"]

log = logging.getLogger(__name__)


STATIC = "static"
INSTALL_HINT = "PIP_CONSTRAINT=constraints.txt pip install -e '.[static]'"


def import_model2vec() -> ModuleType:
    """The ``model2vec`` package with its distillation (the ``static`` extra), or an ImportError saying how to
    install it: the one place the library imports model2vec."""
    hide_broken_torchaudio()
    try:
        import model2vec
        import model2vec.distill
        import model2vec.modelcards  # its card: the model2vec export writes one
    except ImportError as error:
        raise ImportError(f"the static encoder's distillation and export need model2vec and skeletoken ({error}): "
                          f"{INSTALL_HINT}") from None
    return model2vec


def default_teacher() -> Path:
    """The packaged all-MiniLM-L6-v2 directory (unzipped on first use; see
    :func:`paranmt.core.hf_imports.minilm_directory`)."""
    return minilm_directory()


def static_cache_dir(cache: str | Path | None = None) -> Path:
    """Where distillations and teacher vectors are cached: ``cache``, else ``$PARANMT_CACHE/static`` (default
    ``~/.cache/paranmt/static``)."""
    if cache is not None:
        return Path(cache)
    return Path(os.environ.get("PARANMT_CACHE", Path.home() / ".cache" / "paranmt")).expanduser() / "static"


def teacher_id(teacher: str | Path) -> str:
    """A short fingerprint of a teacher directory (its config and weight file sizes and names): cache keys."""
    root = Path(teacher)
    parts = [str(root.resolve())]
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".safetensors", ".bin", ".txt"):
            parts.append(f"{path.relative_to(root)}:{path.stat().st_size}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:12]


def distill_teacher(teacher: str | Path | None = None, pca_dims: int | None = 256,
                    vocabulary: Sequence[str] | None = None, cache: str | Path | None = None) -> StaticVocab:
    """The teacher's model2vec distillation (float32, on the CPU) as a :class:`StaticVocab` with its table;
    cached under :func:`static_cache_dir` by teacher, PCA size and added vocabulary (a distillation is
    deterministic)."""
    teacher = Path(teacher) if teacher is not None else default_teacher()
    words = sorted(set(vocabulary or ()))
    key = hashlib.sha1(json.dumps([teacher_id(teacher), pca_dims, words]).encode()).hexdigest()[:16]
    folder = static_cache_dir(cache) / "distilled" / key
    if (folder / StaticVocab.FILE).is_file() and (folder / StaticVocab.INIT).is_file():
        vocab = StaticVocab.load(folder)
        vocab.teacher = str(teacher)
        return vocab
    distill = import_model2vec().distill.distill
    log.info("distilling %s (PCA %s, %d added words) with model2vec", teacher, pca_dims, len(words))
    with contextlib.redirect_stderr(io.StringIO()):  # model2vec's and transformers' progress bars: the line above
        model = distill(model_name=str(teacher), vocabulary=words or None, device="cpu", pca_dims=pca_dims,
                        quantize_to="float32")
    vocab = StaticVocab(model.tokenizer.to_str(), np.ascontiguousarray(model.embedding, dtype=np.float32),
                        str(teacher))
    staging = folder.with_name(f".{folder.name}.{os.getpid()}")
    vocab.save(staging)
    with contextlib.suppress(OSError):  # a concurrent run cached it first
        staging.rename(folder)
    return vocab
