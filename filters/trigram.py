"""Trigram overlap between a reference and its back-translation (ParaNMT-50M §5.4, footnote 6).

    from filters.trigram import trigram_overlap
    overlap = trigram_overlap(table["en_tokens"], table["mt_tokens"])      # float32, one per pair

Footnote 6: "Trigram overlap is calculated by counting trigrams in the reference and translation, then dividing
the number of shared trigrams by the total number in the reference or translation, whichever has fewer." Choices
the footnote leaves open, fixed here:

* Tokens are the pair's Moses tokens, **lower-cased** (``pc.utf8_lower``), so ``The cat`` and ``the cat`` share
  trigrams.
* Trigrams are counted as **distinct sets** per sentence: a trigram repeated in one sentence counts once, both
  in "shared" and in the denominator. So the overlap is ``|T(en) ∩ T(mt)| / min(|T(en)|, |T(mt)|)`` and always
  lies in [0, 1] (with multisets a repeated trigram could be "shared" more often than the other side has it).
* A sentence with fewer than 3 tokens (or an empty / null token list) has **no trigrams**; its pair's overlap is
  **0.0**, never NaN (the denominator would be 0).

The core is vectorised over a whole batch with no Python loop over pairs: both sides are flattened and
dictionary-encoded to integer ids once (:func:`encode_tokens`), each trigram is packed exactly into one uint64,
and the per-pair distinct sets and their intersections come from a single ``np.sort`` of keys that pack
``(pair, trigram, side)`` into 64 bits (see :func:`trigram_overlap_encoded`).
"""

from __future__ import annotations

import numpy as np

from paranmt.core.token_arrays import EncodedTokens, TokenLists, as_token_lists, encode_tokens

__all__ = ["trigram_overlap", "trigram_overlap_encoded"]


# Packing limits (module constants so that tests can force the fallback paths on small inputs).
_PACK_ID_BITS = 21  # three ids of up to 21 bits fit one uint64 exactly
_KEY_BITS = 64  # pair | trigram | side must fit one uint64


def _bits(max_value: int) -> int:
    """Bits needed to store integers 0..max_value (at least 1)."""
    return max(1, int(max_value).bit_length())


def _dense_rank(values: np.ndarray) -> np.ndarray:
    """Exact re-labelling of uint64 values to 0..(distinct-1), preserving equality."""
    return np.unique(values, return_inverse=True)[1].astype(np.uint64).reshape(-1)


def _trigram_codes(ids: np.ndarray, offsets: np.ndarray, vocab_size: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Every trigram of every sentence (in sentence order) as one exact uint64 code; also the number of trigrams
    per sentence and the codes' bit width.

    Ids below 2^21 pack exactly as ``a << 2b | b << b | c``. With a larger batch vocabulary the packing stays exact
    instead of hashing: bigrams ``(a, b)`` are first relabelled to dense ranks (fewer than the number of tokens),
    then packed with ``c``; no two different trigrams ever share a code.
    """
    lengths = np.diff(offsets)
    per_sentence = np.maximum(lengths - 2, 0)  # a sentence of L >= 3 tokens has L - 2 trigrams
    # A token starts a trigram unless it is one of the last two of its sentence.
    starts_ok = np.ones(len(ids), dtype=bool)
    ends = offsets[1:]
    starts_ok[ends[lengths >= 1] - 1] = False
    starts_ok[ends[lengths >= 2] - 2] = False
    starts = np.flatnonzero(starts_ok)
    a, b, c = (ids[starts + k].astype(np.uint64) for k in range(3))
    id_bits = _bits(vocab_size - 1)
    if id_bits <= _PACK_ID_BITS:
        codes = (a << np.uint64(2 * id_bits)) | (b << np.uint64(id_bits)) | c
        return codes, per_sentence, 3 * id_bits
    bigram = _dense_rank((a << np.uint64(id_bits)) | b)
    rank_bits = _bits(int(bigram.max()) if len(bigram) else 0)
    return (bigram << np.uint64(id_bits)) | c, per_sentence, rank_bits + id_bits


def trigram_overlap_encoded(encoded: EncodedTokens) -> np.ndarray:
    """Trigram overlap of pairs whose two sides are the two halves of ``encoded`` (see :func:`trigram_overlap`).

    ``encoded`` must hold 2n sentences (references, then translations). It is lower-cased here if it is not yet.
    """
    encoded = encoded.lowercased()
    n_sentences = encoded.n_sentences
    if n_sentences % 2:
        raise ValueError(f"expected 2n sentences (references then translations), got {n_sentences}")
    n = n_sentences // 2
    if n == 0:
        return np.zeros(0, np.float32)
    codes, per_sentence, code_bits = _trigram_codes(encoded.ids, encoded.offsets, len(encoded.dictionary))
    pair_bits = _bits(n - 1)
    if code_bits + pair_bits + 1 > _KEY_BITS:  # big batch and big vocabulary: relabel trigrams densely (exact)
        codes = _dense_rank(codes)
        code_bits = _bits(int(codes.max()) if len(codes) else 0)
    if code_bits + pair_bits + 1 > _KEY_BITS:
        raise ValueError(f"batch too large to pack ({n} pairs, {len(codes)} trigrams): split it")
    # key = pair | trigram | side (0: reference, 1: translation). One sort groups each pair's trigrams; equal
    # neighbours are repeats within one sentence (dropped: distinct sets); after that, neighbours that are equal
    # up to the side bit are the shared trigrams.
    shift = np.uint64(code_bits + 1)
    pairs = np.arange(n, dtype=np.uint64) << shift
    keys = np.repeat(np.concatenate((pairs, pairs | np.uint64(1))), per_sentence)
    keys |= codes << np.uint64(1)
    keys.sort()
    if len(keys):
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    key_pair = (keys >> shift).view(np.int64)  # < 2^63: the view is exact
    counts = np.bincount(key_pair * 2 + (keys & np.uint64(1)).view(np.int64), minlength=2 * n).reshape(n, 2)
    halves = keys >> np.uint64(1)
    shared = np.bincount(key_pair[1:][halves[1:] == halves[:-1]], minlength=n)
    denominator = counts.min(axis=1)
    overlap = np.zeros(n, np.float64)
    np.divide(shared, denominator, out=overlap, where=denominator > 0)  # no trigrams on a side: 0.0, not NaN
    return overlap.astype(np.float32)


def trigram_overlap(en_tokens: TokenLists, mt_tokens: TokenLists) -> np.ndarray:
    """Footnote-6 trigram overlap of each (reference, translation) pair, as float32 in [0, 1].

    ``|T(en) ∩ T(mt)| / min(|T(en)|, |T(mt)|)`` over distinct lower-cased word trigrams; 0.0 when either side has
    fewer than 3 tokens. Both columns are list<string> Moses tokens (Arrow Array/ChunkedArray or Python lists)
    of the same length.
    """
    en, mt = as_token_lists(en_tokens), as_token_lists(mt_tokens)
    if len(en) != len(mt):
        raise ValueError(f"{len(en)} references but {len(mt)} translations")
    return trigram_overlap_encoded(encode_tokens(en, mt))
