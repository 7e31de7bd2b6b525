"""Token-list columns dictionary-encoded once: every accepted input form gives the tokens back exactly (checked
against a plain Python decoding), sentence boundaries hold across columns and chunks, and lower-casing remaps the
dictionary like lower-casing every token."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from paranmt.core.token_arrays import as_token_lists, encode_tokens

EN = [["The", "cat", "sat"], [], None, ["a", None, "b"], ["the", "Cat"]]
MT = [["A", "cat"], ["x"], ["y", "y"], None, []]


def decoded(encoded) -> list[list[str]]:
    """The sentences an encoding stands for, the obvious way: ids through the dictionary, cut at the offsets."""
    words = encoded.dictionary.to_pylist()
    tokens = [words[i] for i in encoded.ids]
    return [tokens[encoded.offsets[s]:encoded.offsets[s + 1]] for s in range(encoded.n_sentences)]


def expected(*columns) -> list[list[str]]:
    """Null lists are empty sentences, null tokens the empty string."""
    return [["" if t is None else t for t in sentence or []] for column in columns for sentence in column]


def test_the_encoding_gives_every_sentence_back_in_column_order():
    encoded = encode_tokens(EN, MT)
    assert decoded(encoded) == expected(EN, MT)
    assert encoded.n_sentences == 10 and encoded.ids.dtype == np.int32 and encoded.offsets.dtype == np.int64
    words = encoded.dictionary.to_pylist()
    assert len(words) == len(set(words)) == len({t for s in expected(EN, MT) for t in s})  # distinct, all there
    assert not encoded.is_lowercase


def test_arrow_forms_encode_like_python_lists():
    en = pa.array(EN, pa.list_(pa.string()))
    mt = pa.array(MT, pa.list_(pa.string()))
    forms = [
        (en, mt),
        (pa.chunked_array([en[:2], en[2:]]), pa.chunked_array([mt[:1], mt[1:4], mt[4:]])),
        (en.cast(pa.large_list(pa.large_string())), mt.cast(pa.large_list(pa.string()))),
    ]
    for a, b in forms:
        assert decoded(encode_tokens(a, b)) == expected(EN, MT)
    # a slice (non-zero offset) encodes only its own rows
    assert decoded(encode_tokens(en.slice(1, 3))) == expected(EN[1:4])


def test_empty_inputs_give_an_empty_dictionary_and_their_sentence_count():
    for columns in ([], [[]], [[[], None]], [pa.array([], pa.list_(pa.string()))]):
        encoded = encode_tokens(*columns)
        assert len(encoded.dictionary) == 0 and len(encoded.ids) == 0
    assert encode_tokens([[], None], [[]]).offsets.tolist() == [0, 0, 0, 0]
    assert encode_tokens().n_sentences == 0


def test_only_lists_of_strings_are_token_lists():
    with pytest.raises(TypeError, match=r"token lists must be list<string>, got int64"):
        as_token_lists(pa.array([1, 2]))
    with pytest.raises(TypeError, match=r"list<string>, got list<item: int64>"):
        encode_tokens(pa.array([[1], [2]]))
    chunked = as_token_lists([["a"], ["b", "c"]])
    assert isinstance(chunked, pa.ChunkedArray) and chunked.to_pylist() == [["a"], ["b", "c"]]


def test_encode_tokens_lowercases_the_dictionary_like_the_tokens():
    encoded = encode_tokens([["The", "the", "THE", "cat"]], [["Cat"]])
    lower = encoded.lowercased()
    words = lower.dictionary.to_pylist()
    assert [words[i] for i in lower.ids] == ["the", "the", "the", "cat", "cat"]
    assert lower.offsets.tolist() == [0, 4, 5]
    assert lower.lowercased() is lower and encoded.lowercased() is lower


def test_lowercased_equals_encoding_lower_cased_tokens():
    lower = encode_tokens(EN, MT).lowercased()
    assert lower.is_lowercase and len(set(lower.dictionary.to_pylist())) == len(lower.dictionary)
    assert decoded(lower) == [[t.lower() for t in s] for s in expected(EN, MT)]
    assert encode_tokens([[]]).lowercased().ids.tolist() == []
