"""The margin loss of ParaNMT-50M §4 (Wieting et al. 2016b, §3.1) and the training statistics of its terms."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["MARGIN_STATISTICS", "MarginLoss", "cosine", "margin_statistics"]


def cosine(a: torch.Tensor, b: torch.Tensor, eps: float = 1e-8) -> torch.Tensor:
    """Row-wise cosine; 0 for a zero vector (never NaN)."""
    return (F.normalize(a, dim=-1, eps=eps) * F.normalize(b, dim=-1, eps=eps)).sum(-1)



class MarginLoss(nn.Module):
    """The margin (hinge) loss of ParaNMT-50M §4, in both directions (Wieting et al. 2016b, eq. 11).

    Inputs (all ``B x d``, with gradients): ``s``, ``s_prime`` — the embeddings of a mini-batch of paraphrase pairs;
    ``t``, ``t_prime`` — the embeddings of the negatives mined for ``s`` and for ``s′``; optional ``valid``,
    ``valid_prime`` (``B`` bool) — False drops that term (no allowed negative).

    Output: the mean over the ``B`` pairs of
    ``max(0, δ − cos(s, s′) + cos(s, t)) + max(0, δ − cos(s, s′) + cos(s′, t′))``, δ = ``margin`` (0.4 in the paper).

    Requirements: cosine of a zero vector is 0 (empty sentences never give NaN).

    References: Wieting & Gimpel, ParaNMT-50M (ACL 2018) §4; Wieting et al. (ICLR 2016) eq. 11 (without the L2
    regularisers, as in ParaNMT-50M).
    """

    def __init__(self, margin: float = 0.4) -> None:
        super().__init__()
        self.margin = margin

    def forward(self, s: torch.Tensor, s_prime: torch.Tensor, t: torch.Tensor, t_prime: torch.Tensor,
                valid: torch.Tensor | None = None, valid_prime: torch.Tensor | None = None) -> torch.Tensor:
        positive = cosine(s, s_prime)
        first = torch.relu(self.margin - positive + cosine(s, t))
        second = torch.relu(self.margin - positive + cosine(s_prime, t_prime))
        if valid is not None:
            first = first * valid.to(first.dtype)
        if valid_prime is not None:
            second = second * valid_prime.to(second.dtype)
        return (first + second).mean()


MARGIN_STATISTICS = ("positive_cos", "negative_cos", "positive_nearer", "margin_met")


@torch.no_grad()
def margin_statistics(s: torch.Tensor, s_prime: torch.Tensor, t: torch.Tensor, t_prime: torch.Tensor,
                      valid: torch.Tensor | None = None, valid_prime: torch.Tensor | None = None,
                      margin: float = 0.4) -> torch.Tensor:
    """What the margin loss sees in a mini-batch (inputs as :class:`MarginLoss`), for training logs.

    Output: a 4-vector on the inputs' device (no host synchronisation; names in :data:`MARGIN_STATISTICS`):
    ``positive_cos`` (mean cos(s, s′)), ``negative_cos`` (mean over both directions of cos(s, t)),
    ``positive_nearer`` (fraction of the sentences whose paraphrase is more similar than their mined negative) and
    ``margin_met`` (fraction whose hinge is already zero at ``margin``); NaN when no term is valid. A
    ``positive_nearer`` well below 0.5 after the first steps means the mined negatives are mostly closer than the
    paraphrases — typically paraphrases themselves (false negatives, e.g. near-identical captions of other images):
    a larger mega-batch then hurts; with ``positive_cos`` and ``negative_cos`` both near 1 the embeddings have
    collapsed.
    """
    positive = cosine(s, s_prime).repeat(2)
    negative = torch.cat([cosine(s, t), cosine(s_prime, t_prime)])
    if valid is not None and valid_prime is not None:
        keep = torch.cat([valid, valid_prime]).to(positive.device)
        positive, negative = positive[keep], negative[keep]
    return torch.stack([positive.mean(), negative.mean(), (positive > negative).float().mean(),
                        (positive - negative >= margin).float().mean()])
