"""A CTranslate2 vocabulary shortlist (``translate.vmap``) from a model's training bitext, for ``paranmt vmap``
(whose help, paranmt/cli/vmap_command.py, defines the candidates, the ranking and the file format): co-occurrence
counts over the model's own source and target tokens in sparse matrices, ranked by local mutual information."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy import sparse

log = logging.getLogger(__name__)

SPECIAL_TARGETS = ("</s>", "<unk>")


def _presence(pieces: Sequence[Sequence[str]], vocab: dict[str, int]) -> sparse.csr_matrix:
    """pairs x vocabulary, 1 where the pair's side holds the token (tokens outside ``vocab`` ignored)."""
    rows, cols = [], []
    for row, tokens in enumerate(pieces):
        ids = {vocab[t] for t in tokens if t in vocab}
        rows.extend([row] * len(ids))
        cols.extend(ids)
    data = np.ones(len(rows), dtype=np.int32)
    return sparse.csr_matrix((data, (rows, cols)), shape=(len(pieces), len(vocab)), dtype=np.int32)


def build_vmap(source_pieces: Sequence[Sequence[str]], target_pieces: Sequence[Sequence[str]],
               source_vocab: Sequence[str], target_vocab: Sequence[str], per_source: int = 20,
               always: int = 200, min_joint: int = 2) -> tuple[list[str], dict[str, list[str]]]:
    """(always-on target tokens, source token -> its top ``per_source`` candidates) from tokenised pairs."""
    if len(source_pieces) != len(target_pieces):
        raise ValueError(f"{len(source_pieces)} source sides but {len(target_pieces)} target sides")
    src_index = {t: i for i, t in enumerate(source_vocab)}
    tgt_index = {t: i for i, t in enumerate(target_vocab)}
    s, t = _presence(source_pieces, src_index), _presence(target_pieces, tgt_index)
    n = s.shape[0]
    joint = (s.T @ t).tocoo()  # pairs holding both tokens
    c_s, c_t = np.asarray(s.sum(axis=0)).ravel(), np.asarray(t.sum(axis=0)).ravel()
    keep = joint.data >= min_joint
    rows, cols, counts = joint.row[keep], joint.col[keep], joint.data[keep].astype(np.float64)
    lmi = counts * np.log(n * counts / (c_s[rows] * c_t[cols]))
    always_ids = [int(i) for i in np.argsort(-c_t, kind="stable")[:always] if c_t[i] > 0]
    always_tokens = list(dict.fromkeys([*SPECIAL_TARGETS, *(target_vocab[i] for i in always_ids)]))
    always_set = set(always_tokens)
    mapping: dict[str, list[str]] = {}
    order = np.lexsort((-lmi, rows))  # by source token, best first
    rows, cols, lmi = rows[order], cols[order], lmi[order]
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if len(rows) else np.array([], dtype=np.int64)
    for start, end in zip(starts, [*starts[1:], len(rows)], strict=True):
        chosen = [target_vocab[c] for c, score in zip(cols[start:end], lmi[start:end], strict=True)
                  if score > 0 and target_vocab[c] not in always_set][:per_source]
        if chosen:
            mapping[source_vocab[rows[start]]] = chosen
    return always_tokens, mapping


def write_vmap(path: Path, always_tokens: Sequence[str], mapping: dict[str, list[str]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write("\t" + " ".join(always_tokens) + "\n")
        for source, targets in sorted(mapping.items()):
            out.write(f"{source}\t{' '.join(targets)}\n")


def concatenated_lines(paths: Sequence[Path]) -> list[str]:
    """The lines of every file in ``paths``, one list (``str.splitlines``)."""
    lines: list[str] = []
    for path in paths:
        lines += path.read_text(encoding="utf-8").splitlines()
    return lines

