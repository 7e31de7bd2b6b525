"""The PMI of the counted word pairs (the definitions: :mod:`pipeline.analysis.lexicon`): the lexicon table and each
word's best paraphrases."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from configs.schema import LexiconConfig
from pipeline.analysis.lexicon.counting import PairCounts, Vocabulary

__all__ = ["LEXICON_SCHEMA", "compute_lexicon", "top_k_table", "within_pmi"]

LEXICON_SCHEMA = pa.schema([
    pa.field("u", pa.string(), nullable=False),
    pa.field("v", pa.string(), nullable=False),
    pa.field("joint", pa.int64(), nullable=False),  # #(u, v), cross-sentence
    pa.field("within_ref", pa.int64(), nullable=False),  # #_ref(u, v)
    pa.field("within_mt", pa.int64(), nullable=False),  # #_mt(u, v)
    pa.field("count_u", pa.int64(), nullable=False),  # #(u): sentences with u, both sides
    pa.field("count_v", pa.int64(), nullable=False),
    pa.field("pmi_cross", pa.float64(), nullable=False),
    pa.field("pmi_within", pa.float64(), nullable=False),  # (PMI_ref + PMI_mt) / 2
    pa.field("pmi_adj", pa.float64(), nullable=False),
])


def within_pmi(joint: np.ndarray, count_u: np.ndarray, count_v: np.ndarray, sentences: int,
               config: LexiconConfig) -> np.ndarray:
    """Within-sentence PMI of word pairs on one side (``sentences`` = P sentences; ``joint`` = sentences with both
    words, ``count_*`` = sentences with each), by ``config.within_estimate``:

    - ``prior``: ``log((joint + b) / (E + b))``, E = count_u count_v / P the co-occurrences expected if u and v were
      independent, b = ``within_prior``: the log of the posterior mean of the ratio r when joint ~ Poisson(r E) and
      r ~ Gamma(b, b) (mean 1, PMI 0). A pair expected to meet far less than b times gets ~``log(1 + joint / b)``
      (0 if it never shared a sentence: no evidence either way); one expected far more often gets the plain
      ``log(joint / E)``; never infinite.
    - ``additive``: ``log((joint + a) P / ((count_u + a)(count_v + a)))``, a = ``smoothing``. When E << a it is
      ~``log(a / E)``, large and positive: a pair of rare words that never shared a sentence looks strongly
      associated, and its adjusted PMI collapses to ~``log(#(u,v) / 2)`` (docs/lexicon.md, "Diagnosis").
    """
    joint = joint.astype(np.float64, copy=False)
    count_u = count_u.astype(np.float64, copy=False)
    count_v = count_v.astype(np.float64, copy=False)
    if config.within_estimate == "prior":
        b = config.within_prior
        return np.log((joint + b) / (count_u * count_v / sentences + b))
    a = config.smoothing
    return np.log((joint + a) * sentences / ((count_u + a) * (count_v + a)))


def compute_lexicon(counts: PairCounts, vocab: Vocabulary, config: LexiconConfig,
                    words: np.ndarray | None = None) -> pa.Table:
    """The lexicon table (:data:`LEXICON_SCHEMA`): both orders of every word pair u != v with
    ``joint >= parquet_min_joint``, sorted by u, then ``rank_by`` descending, then v; with ``words`` (a mask over
    vocabulary ids) only the rows whose u is one of them (a shard's)."""
    counts.compact()
    V, P = counts.size, vocab.pairs
    keys, joint = counts.cross.keys, counts.cross.counts
    u, v = keys // V, keys % V
    off = (u != v) & (joint >= config.parquet_min_joint)
    keys, joint, u, v = keys[off], joint[off], u[off], v[off]
    if keys.size == 0 or P == 0:
        return LEXICON_SCHEMA.empty_table()
    total = vocab.total.astype(np.float64)
    n_pairs_ordered = 2.0 * P  # #(., .) = N = 2P
    pmi_cross = np.log(joint * n_pairs_ordered / (total[u] * total[v]))
    within = {side: c.get(keys) for side, c in counts.within.items()}
    marg = {"ref": vocab.ref, "mt": vocab.mt}
    pmi_side = [within_pmi(within[s], marg[s][u], marg[s][v], P, config) for s in ("ref", "mt")]
    pmi_within = 0.5 * (pmi_side[0] + pmi_side[1])
    pmi_adj = pmi_cross - pmi_within
    rows = None if words is None else np.concatenate([np.flatnonzero(words[u]), u.size + np.flatnonzero(words[v])])

    def both(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # (u, v) rows then (v, u) rows
        joined = np.concatenate([x, y])
        return joined if rows is None else joined[rows]

    uu, vv = both(u, v), both(v, u)
    columns = {
        "u": vocab.words.take(pa.array(uu)), "v": vocab.words.take(pa.array(vv)),
        "joint": both(joint, joint), "within_ref": both(within["ref"], within["ref"]),
        "within_mt": both(within["mt"], within["mt"]),
        "count_u": vocab.total[uu], "count_v": vocab.total[vv],
        "pmi_cross": both(pmi_cross, pmi_cross), "pmi_within": both(pmi_within, pmi_within),
        "pmi_adj": both(pmi_adj, pmi_adj),
    }
    table = pa.Table.from_arrays([pa.array(columns[f.name], f.type) if not isinstance(columns[f.name], pa.Array)
                                  else columns[f.name] for f in LEXICON_SCHEMA], schema=LEXICON_SCHEMA)
    return table.sort_by([("u", "ascending"), (config.rank_by, "descending"), ("v", "ascending")])


def top_k_table(lexicon: pa.Table, k: int, min_joint: int, rank_by: str = "pmi_adj") -> pa.Table:
    """The best ``k`` paraphrases v of every word u among pairs with ``joint >= min_joint`` (columns u, rank, v,
    joint, pmi_adj, pmi_cross), ranked by ``rank_by``."""
    table = lexicon.filter(pc.greater_equal(lexicon.column("joint"), min_joint))
    table = table.sort_by([("u", "ascending"), (rank_by, "descending"), ("v", "ascending")])
    words = table.column("u").combine_chunks()
    if len(words) == 0:  # the same schema as a non-empty list (a shard's empty list is concatenated with others')
        return table.select(["u", "v", "joint", "pmi_adj", "pmi_cross"]).add_column(1, "rank",
                                                                                    pa.array([], pa.int64()))
    new = np.r_[True, pc.not_equal(words[1:], words[:-1]).to_numpy(zero_copy_only=False)]
    starts = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    rank = np.arange(len(words)) - starts[group] + 1
    keep = rank <= k
    out = table.filter(pa.array(keep)).select(["u", "v", "joint", "pmi_adj", "pmi_cross"])
    return out.add_column(1, "rank", pa.array(rank[keep], pa.int64()))
