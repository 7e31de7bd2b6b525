"""Columns of token lists as Arrow arrays, dictionary-encoded once for vectorised scoring and featurisation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# A column of token lists: Arrow list<string> / large_list<string> (Array or ChunkedArray), or plain Python lists.
TokenLists = pa.Array | pa.ChunkedArray | Sequence[Sequence[str] | None]


def as_token_lists(tokens: TokenLists) -> pa.ChunkedArray:
    """Any accepted token-list column as a ChunkedArray of list<string> (Python lists are converted)."""
    if isinstance(tokens, pa.ChunkedArray):
        array = tokens
    elif isinstance(tokens, pa.Array):
        array = pa.chunked_array([tokens])
    else:
        array = pa.chunked_array([pa.array(list(tokens), type=pa.list_(pa.string()))])
    value_type = array.type
    if not (pa.types.is_list(value_type) or pa.types.is_large_list(value_type)) or not (
            pa.types.is_string(value_type.value_type) or pa.types.is_large_string(value_type.value_type)):
        raise TypeError(f"token lists must be list<string>, got {value_type}")
    return array


@dataclass(frozen=True, eq=False)
class EncodedTokens:
    """Sentences of one or more token-list columns, concatenated in order, as integer ids over one dictionary.

    ``ids[offsets[s]:offsets[s + 1]]`` are the tokens of sentence ``s``; ``dictionary[i]`` is the token with id
    ``i`` (as written, or lower-cased after :meth:`lowercased`). For a pair batch, sentences ``0..n-1`` are the
    references and ``n..2n-1`` the translations.
    """

    dictionary: pa.Array  # string: distinct tokens
    ids: np.ndarray  # int32, one per token
    offsets: np.ndarray  # int64, n_sentences + 1
    is_lowercase: bool = False
    _lower: list[EncodedTokens] = field(default_factory=list, repr=False, compare=False)  # memo of lowercased()

    @property
    def n_sentences(self) -> int:
        return len(self.offsets) - 1

    def lowercased(self) -> EncodedTokens:
        """The same tokens lower-cased (``pc.utf8_lower``), re-encoded over the distinct lower-cased forms.

        Lower-casing the dictionary (tens of thousands of distinct tokens) and remapping the ids is much cheaper
        than lower-casing every token, and gives the same ids as encoding the lower-cased tokens directly.
        """
        if self.is_lowercase:
            return self
        if not self._lower:
            encoded = pc.utf8_lower(self.dictionary).dictionary_encode()
            remap = encoded.indices.to_numpy().astype(np.int32)
            ids = remap[self.ids] if len(remap) else self.ids
            self._lower.append(EncodedTokens(encoded.dictionary, ids, self.offsets, is_lowercase=True))
        return self._lower[0]


def encode_tokens(*columns: TokenLists) -> EncodedTokens:
    """Flatten and dictionary-encode token-list columns (all sentences of the first column, then the second, ...).

    Null lists count as empty sentences; a null token inside a list counts as the empty-string token.
    """
    flats: list[pa.Array] = []
    lengths: list[np.ndarray] = []
    for column in columns:
        for chunk in as_token_lists(column).chunks:
            # flatten() honours slicing and drops the values behind null lists; value_lengths() is null there.
            flats.append(chunk.flatten().cast(pa.string()))
            lengths.append(pc.fill_null(pc.list_value_length(chunk), 0).to_numpy().astype(np.int64))
    offsets = np.zeros(sum(len(x) for x in lengths) + 1, dtype=np.int64)
    if lengths:
        np.cumsum(np.concatenate(lengths), out=offsets[1:])
    flats = [pc.fill_null(f, "") if f.null_count else f for f in flats]
    if not flats or offsets[-1] == 0:
        return EncodedTokens(pa.array([], pa.string()), np.zeros(0, np.int32), offsets)
    # One hash pass over all chunks; unify_dictionaries guarantees one dictionary whatever Arrow does per chunk.
    encoded = pa.chunked_array(flats, type=pa.string()).dictionary_encode().unify_dictionaries()
    chunks = [c for c in encoded.chunks if len(c)]
    ids = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in chunks]).astype(np.int32, copy=False)
    return EncodedTokens(chunks[0].dictionary, ids, offsets)
