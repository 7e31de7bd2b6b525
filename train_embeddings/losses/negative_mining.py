"""Mega-batch negative mining (ParaNMT-50M §4): the most similar other sentence of the mega-batch for every
sentence (MAX), or a random one half the time (MIX)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["MegaBatchMiner", "MinedNegatives"]


@dataclass
class MinedNegatives:
    """``index[k]``: the negative of sentence ``k`` of the stacked mega-batch ``[s_1 … s_N, s′_1 … s′_N]`` (an
    index into the same stack); ``valid[k]`` is False where no sentence was allowed (every other sentence shares
    the group), in which case ``index[k]`` is meaningless and the loss term is dropped."""

    index: torch.Tensor  # (2N,) int64
    valid: torch.Tensor  # (2N,) bool

    def to(self, device: torch.device | str) -> MinedNegatives:
        return MinedNegatives(self.index.to(device), self.valid.to(device))



class MegaBatchMiner(nn.Module):
    """Choose a negative example for every sentence of a mega-batch (ParaNMT-50M §4 "mega-batching").

    Inputs:
        left: ``N x d`` embeddings of the first sentences ``s_i`` (computed without gradients).
        right: ``N x d`` embeddings of their paraphrases ``s′_i``.
        groups: optional ``N`` integer group ids; sentences of pairs with equal ids are never negatives of each
            other (e.g. the five captions of one image). A pair's own two sentences are always excluded.
        generator: CPU generator for MIX's random draws (reproducible on any device).

    Output: :class:`MinedNegatives` over the ``2N`` stacked sentences ``[left; right]``.

    Strategy (Wieting et al. 2016b §3.1.1): ``max`` — ``t = argmax cos(g(s), g(t′))`` over all ``2N`` sentences
    except those excluded; ``mix`` — MAX with probability ``mix_probability`` (0.5), else a uniformly random allowed
    sentence. With ``M = 1`` this is ordinary in-batch mining.

    Requirements: one ``2N x 2N`` similarity matrix product per call (``2N = 8,000`` at M = 40, batch 100: 256 MB
    in float32); the excluded entries are overwritten with -inf by one scatter over the ``sum(group size^2)``
    same-group positions (no dense mask), then one arg-max per row (ties: the lower index, like ``numpy.argmax``).
    The product is taken in row blocks of at most ``max_block_entries`` similarities — by default 2^21 on a CPU
    (8 MB, ~260 rows at M = 40) and 2^28 on a GPU (one product up to 2N = 16,384) — so memory stays bounded for
    any M (2N = 20,000 would need 1.6 GB at once). With several blocks only the upper triangle is computed (the
    matrix is symmetric; each block is reduced by row and by column while still in cache): on a CPU the whole
    miner then costs about half the bare full product (``benchmarks/embeddings/train_bench.py`` times both).
    MIX builds a boolean mask for its random rows only.

    Cost: the product is ``(2N)^2 x d`` multiply-adds — quadratic in M per mega-batch, i.e. linear in M per pair —
    and runs at the device's float32 GEMM rate (``benchmarks/embeddings/train_bench.py`` prints both). Lower
    precision is not used: averaged word vectors lie in a narrow cone (unrelated captions have cosines near 1), where
    bfloat16's 2^-8 resolution cannot order the candidates and changes the arg-max.

    References: Wieting & Gimpel, ParaNMT-50M (ACL 2018) §4; Wieting et al., Towards Universal Paraphrastic
    Sentence Embeddings (ICLR 2016) eq. 12.
    """

    def __init__(self, strategy: str = "max", mix_probability: float = 0.5,
                 max_block_entries: int | None = None) -> None:
        super().__init__()
        if strategy not in ("max", "mix"):
            raise ValueError(f"negative strategy must be 'max' or 'mix', got {strategy!r}")
        if max_block_entries is not None and max_block_entries < 1:
            raise ValueError(f"max_block_entries must be positive, got {max_block_entries}")
        self.strategy = strategy
        self.mix_probability = mix_probability
        self.max_block_entries = max_block_entries

    @torch.no_grad()
    def forward(self, left: torch.Tensor, right: torch.Tensor, groups: torch.Tensor | None = None,
                generator: torch.Generator | None = None) -> MinedNegatives:
        if left.shape != right.shape:
            raise ValueError(f"left {tuple(left.shape)} and right {tuple(right.shape)} differ")
        n = left.shape[0]
        device = left.device
        stacked = F.normalize(torch.cat([left, right]).float(), dim=1, eps=1e-8)
        owner = torch.arange(n, device=device) if groups is None else groups.to(device=device, dtype=torch.long)
        if owner.shape != (n,):
            raise ValueError(f"groups must have one id per pair ({n}), got shape {tuple(owner.shape)}")
        # Both sentences of pair i carry its group (so its own pair is always excluded). Only the same-group
        # entries are masked: sum over groups of size^2 positions, found by sorting the sentences by group.
        _, group, sizes = torch.unique(owner.repeat(2), return_inverse=True, return_counts=True)
        members = torch.argsort(group, stable=True)  # sentences ordered by group
        starts = torch.cumsum(sizes, 0) - sizes
        size = sizes[group]  # group size (in sentences) of every sentence
        rows = torch.repeat_interleave(torch.arange(2 * n, device=device), size)  # ascending
        within = torch.arange(rows.numel(), device=device) - torch.repeat_interleave(torch.cumsum(size, 0) - size, size)
        columns = members[starts[group][rows] + within]
        entries = self.max_block_entries or (1 << 21 if device.type == "cpu" else 1 << 28)
        index = _masked_argmax_upper(stacked, rows, columns, block=max(1, entries // (2 * n)))
        allowed_count = 2 * n - size
        valid = allowed_count > 0
        if self.strategy == "mix":
            pick_random = torch.rand(2 * n, generator=generator).to(device) >= self.mix_probability
            draws = torch.rand(2 * n, generator=generator).to(device)
            chosen_rows = torch.nonzero(pick_random & valid).squeeze(1)
            if chosen_rows.numel():
                # The r-th allowed column of each chosen row, r uniform in [0, allowed): a running count per row.
                allowed = group[chosen_rows].unsqueeze(1) != group.unsqueeze(0)
                rank = (draws[chosen_rows] * allowed_count[chosen_rows]).long().clamp(
                    max=allowed_count[chosen_rows] - 1)
                running = allowed.cumsum(1, dtype=torch.int32)
                chosen = torch.searchsorted(running, (rank + 1).to(torch.int32).unsqueeze(1)).squeeze(1)
                index[chosen_rows] = chosen
        return MinedNegatives(index, valid)


def _masked_argmax_upper(unit: torch.Tensor, rows: torch.Tensor, columns: torch.Tensor, block: int) -> torch.Tensor:
    """Row-wise arg-max of ``unit @ unit.T`` with the ``(rows, columns)`` entries excluded (a symmetric set, ``rows``
    ascending), computing only the upper triangle: the similarity matrix is symmetric, so the block of rows
    ``[start, stop)`` against the columns ``>= start`` also gives, read by column, those rows' similarities to every
    later sentence — half the multiply-adds of the full product. Candidates reach a row in increasing index order,
    so a strict ``>`` merge keeps the lowest index on ties, exactly like ``argmax`` over the full row."""
    size = unit.shape[0]
    device = unit.device
    best = torch.full((size,), float("-inf"), device=device)
    index = torch.zeros(size, dtype=torch.long, device=device)

    def merge(segment: slice, values: torch.Tensor, candidates: torch.Tensor) -> None:
        better = values > best[segment]
        best[segment] = torch.where(better, values, best[segment])
        index[segment] = torch.where(better, candidates, index[segment])

    for start in range(0, size, block):
        stop = min(start + block, size)
        similarity = unit[start:stop] @ unit[start:].T  # rows [start, stop) x columns [start, size)
        lo, hi = torch.searchsorted(rows, torch.tensor([start, stop], device=device)).tolist()
        upper = columns[lo:hi] >= start
        similarity[rows[lo:hi][upper] - start, columns[lo:hi][upper] - start] = float("-inf")
        values, found = similarity.max(dim=1)
        merge(slice(start, stop), values, found + start)
        if stop < size:  # the same block read by column: the later sentences' similarities to these rows
            values, found = similarity[:, stop - start:].max(dim=0)
            merge(slice(stop, size), values, found + start)
    return index
