"""The teacher loss's targets (Tokenlearn): the teacher's sentence vectors of the training sentences, computed once
in batches and cached on disk, looked up per mega-batch by exact sentence.

The cache (``<static cache>/teacher/<teacher fingerprint>/``: ``texts.json`` + ``vectors.npy``) only grows: a run
asks for its sentences, the missing ones are encoded (batches of ``batch_size``, saved every ``save_every``
sentences, so a killed computation resumes) and the rest are read back.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.core.hf_imports import import_sentence_transformers
from train_embeddings.static.teacher import default_teacher, static_cache_dir, teacher_id

__all__ = ["TeacherTargets", "teacher_targets"]

log = logging.getLogger(__name__)


class TeacherTargets:
    """Sentence → teacher vector (float32); sentences without one look up as zero rows."""

    def __init__(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        self.texts = pa.array(list(texts), pa.string())
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self._zero = np.zeros((1, self.vectors.shape[1]), np.float32)
        self._table = np.concatenate([self.vectors, self._zero])  # row -1 → the zero row

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def lookup(self, texts: pa.Array | pa.ChunkedArray) -> np.ndarray:
        """``len(texts) x dim`` targets, zero rows for sentences the cache does not hold."""
        rows = pc.index_in(texts, value_set=self.texts)
        index = pc.fill_null(rows, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        return self._table[index]


def _save(folder: Path, texts: list[str], vectors: np.ndarray) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp_vectors, tmp_texts = folder / f".vectors.{os.getpid()}.npy", folder / f".texts.{os.getpid()}.json"
    np.save(tmp_vectors, vectors)
    tmp_texts.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp_vectors, folder / "vectors.npy")  # vectors first: texts.json never names rows it lacks
    os.replace(tmp_texts, folder / "texts.json")


def teacher_targets(sentences: Iterable[str], teacher: str | Path | None = None, cache: str | Path | None = None,
                    batch_size: int = 128, save_every: int = 8192) -> TeacherTargets:
    """The teacher's vectors of ``sentences`` (encoded where the cache lacks them; a sentence-transformers
    directory, default the packaged all-MiniLM-L6-v2)."""
    teacher = Path(teacher) if teacher is not None else default_teacher()
    folder = static_cache_dir(cache) / "teacher" / teacher_id(teacher)
    texts: list[str] = []
    vectors = np.zeros((0, 0), np.float32)
    if (folder / "texts.json").is_file():
        texts = json.loads((folder / "texts.json").read_text(encoding="utf-8"))
        vectors = np.load(folder / "vectors.npy")[:len(texts)]
    known = set(texts)
    missing = [s for s in dict.fromkeys(sentences) if s not in known]
    if missing:
        model = import_sentence_transformers().SentenceTransformer(str(teacher), device="cpu")
        log.info("teacher vectors: %d cached, %d to encode with %s", len(texts), len(missing), teacher)
        started = time.perf_counter()
        for start in range(0, len(missing), save_every):
            block = missing[start:start + save_every]
            # the log line below is the progress: sentence-transformers' own bar would draw into a log file too
            encoded = model.encode(block, batch_size=batch_size, convert_to_numpy=True,
                                   show_progress_bar=False).astype(np.float32)
            vectors = encoded if not len(texts) else np.concatenate([vectors, encoded])
            texts += block
            _save(folder, texts, vectors)
            log.info("teacher vectors: %d / %d encoded (%.0f sentences/s)", start + len(block), len(missing),
                     (start + len(block)) / (time.perf_counter() - started))
    return TeacherTargets(texts, vectors)
