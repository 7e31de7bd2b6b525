"""The static encoder's memoised cut (train_embeddings.static.pieces.PieceMemo) against the slow obvious reference kept
here: the tokenizer run on each whole sentence on its own, ``[UNK]`` dropped, and the mean of the table rows in
NumPy. On every STS sentence of ../shared (STS 2012–2016, STS-B) with all-MiniLM-L6-v2's own tokenizer (the
static model's: model2vec's distillation keeps its normalizer, pre-tokenizer and WordPiece), on strings chosen to
break a per-word cut, and on generated text. Needs the ``st`` extra (the packaged MiniLM) and ``tokenizers``."""

from __future__ import annotations

import copy
import json
import pickle
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("tokenizers")
pytest.importorskip("all_minilm_l6_v2", reason="the st extra (the packaged all-MiniLM-L6-v2) is not installed")

from paranmt.core.hf_imports import minilm_directory
from tests.support.shared_data import shared_data
from train_embeddings.evaluation import sts
from train_embeddings.models.embedding_model import EmbeddingModel
from train_embeddings.models.encoder import build_encoder
from train_embeddings.models.spec import ModelSpec
from train_embeddings.static.pieces import PieceMemo, StaticVocab, word_local
from train_embeddings.static.teacher import STATIC

# Strings a per-word cut could get wrong: characters the normalizer deletes or turns into spaces (some of which
# Python's split() would cut at), accents and combining marks beside spaces, CJK, case folding that changes length,
# words over WordPiece's 100 characters, the added tokens inside and around words, pieces that are not words.
TRICKY = ["", " ", "  two  spaces  ", "\ttab\tand\nnewline\r", "a\x0bb c\x0cd e\x1cf g\x1fh i\x85j", "nbsp\xa0here",
          "thin\u2009space ideo\u3000graphic", "zero\u200bwidth soft\xadhyphen", "e\u0301 \u0301accent café Ça",
          "naïve coöperate ÆSIR", "中文字符 mixed漢字", "emoji 😀 ok", "\u212aelvin İstanbul straße ΣΑΣ",
          "x" * 101, "y" * 100, "[UNK] [PAD] x[PAD]y [pad] [Unk]", "##s ##ing", "don't U.S.A. e-mail 3.14 $5",
          "...!!! ??? ---", "A man is playing a guitar.", "MOTORCYCLIST Motorcyclist motorcyclist",
          "\x00null \ufffdreplacement", "a\u2028b\u2029c", "ﬁ ligature ｆｕｌｌ", "trailing space "]


def reference_pieces(vocab: StaticVocab, texts: list[str]) -> list[list[int]]:
    """The tokenizer on each sentence on its own, no special tokens, ``[UNK]`` dropped."""
    return [[i for i in vocab.tokenizer.encode(text, add_special_tokens=False).ids if i != vocab.unk_id]
            for text in texts]


def reference_vectors(table: np.ndarray, pieces: list[list[int]]) -> np.ndarray:
    """The mean of the table rows of each sentence's pieces (zero for none)."""
    return np.stack([table[p].mean(0) if p else np.zeros(table.shape[1], table.dtype) for p in pieces])


def cut(ids: np.ndarray, offsets: np.ndarray) -> list[list[int]]:
    return [ids[offsets[i]:offsets[i + 1]].tolist() for i in range(len(offsets) - 1)]


@pytest.fixture(scope="module")
def tokenizer_json() -> str:
    return (minilm_directory() / "tokenizer.json").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sts_sentences(real_benchmarks: sts.StsBenchmarks) -> list[str]:
    stsb = [s for split in sts.STSB_SPLITS for data in (sts.load_stsb(split, shared_data("sts")),)
            for s in data.sentences1 + data.sentences2]
    return list(dict.fromkeys(real_benchmarks.unique_sentences() + stsb))


def test_the_teacher_tokenizer_is_cut_word_by_word(tokenizer_json) -> None:
    vocab = StaticVocab(tokenizer_json)
    assert word_local(json.loads(tokenizer_json)) and vocab.memo is not None


def test_every_sts_sentence_gets_the_reference_pieces_and_vectors(tokenizer_json, sts_sentences) -> None:
    vocab = StaticVocab(tokenizer_json)
    expected = reference_pieces(vocab, sts_sentences)
    assert len(sts_sentences) > 20_000
    assert cut(*vocab.encode_strings(sts_sentences)) == expected  # cold: every word new
    assert cut(*vocab.encode_strings(sts_sentences[::-1])) == expected[::-1]  # warm: every word known
    table = np.random.default_rng(0).normal(size=(len(vocab), 16)).astype(np.float32)
    spec = ModelSpec(components=[STATIC], static_dim=16, n_static_tokens=len(vocab))
    encoder = build_encoder(spec)
    encoder.parts[STATIC].initialise(table)
    model = EmbeddingModel(spec, encoder, None, None, None, StaticVocab(tokenizer_json))
    vectors = np.concatenate([model.encode(sts_sentences[i:i + 256]) for i in range(0, len(sts_sentences), 256)])
    np.testing.assert_allclose(vectors, reference_vectors(table, expected), rtol=1e-5, atol=1e-6)
    sentence_level = copy.deepcopy(model)
    sentence_level.static.memo = None  # the path of a tokenizer that is not word-local: today's, unchanged
    np.testing.assert_array_equal(sentence_level.encode(sts_sentences), vectors)


def test_strings_that_could_break_a_per_word_cut(tokenizer_json) -> None:
    vocab = StaticVocab(tokenizer_json)
    assert cut(*vocab.encode_strings(TRICKY)) == reference_pieces(vocab, TRICKY)
    assert cut(*vocab.encode_strings(TRICKY)) == reference_pieces(vocab, TRICKY)  # again, from the memo


# Characters and fragments (whole words, pieces, the added tokens' insides) joined into sentences.
TEXT = st.lists(st.sampled_from([*"aAbBzZ09 .,'-#[]\t\n\x0b\x85\xa0\u3000\u200béÉ\u0301ßİ\u212a中😀", "PAD", "UNK",
                                 "man", "guitar", "cycl", "ing"]), max_size=30).map("".join)


@pytest.fixture(scope="module")
def shared_vocab(tokenizer_json) -> StaticVocab:
    return StaticVocab(tokenizer_json)


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(st.lists(TEXT, min_size=1, max_size=8))
def test_generated_text_gets_the_reference_pieces(shared_vocab, texts: list[str]) -> None:
    vocab = shared_vocab  # its memo grows over the examples: words new and known
    assert cut(*vocab.encode_strings(texts)) == reference_pieces(vocab, texts)


def test_the_memo_starts_afresh_when_full_and_a_copy_starts_empty(tokenizer_json) -> None:
    vocab = StaticVocab(tokenizer_json)
    vocab.memo = PieceMemo(vocab.tokenizer, json.loads(tokenizer_json), vocab.unk_id, limit=5)
    texts = ["the cat sat on the mat .", "A dog ran.", "the cat ran, the dog sat."] * 3
    assert cut(*vocab.encode_strings(texts)) == reference_pieces(vocab, texts)
    assert len(vocab.memo.index) <= 5 + len(set(" ".join(texts).split(" ")))
    for other in (copy.deepcopy(vocab), pickle.loads(pickle.dumps(vocab))):
        assert other.memo is not None and other.memo.index == {}
        assert cut(*other.encode_strings(texts)) == reference_pieces(vocab, texts)


def test_threads_sharing_a_memo_get_the_reference_pieces(tokenizer_json, sts_sentences) -> None:
    vocab = StaticVocab(tokenizer_json)
    chunks = [sts_sentences[i:i + 50] for i in range(0, 2000, 50)]
    results: dict[int, list[list[int]]] = {}

    def work(k: int) -> None:
        results[k] = cut(*vocab.encode_strings(chunks[k]))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(chunks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [results[k] for k in range(len(chunks))] == [reference_pieces(vocab, c) for c in chunks]


def test_a_tokenizer_whose_pieces_hold_spaces_is_cut_sentence_by_sentence(tmp_path: Path) -> None:
    from tokenizers import Tokenizer
    from tokenizers.models import BPE
    from tokenizers.pre_tokenizers import ByteLevel
    from tokenizers.trainers import BpeTrainer

    tokenizer = Tokenizer(BPE(unk_token="<unk>"))
    tokenizer.pre_tokenizer = ByteLevel()
    tokenizer.train_from_iterator(["a man plays a guitar", "two dogs run"] * 20,
                                  BpeTrainer(vocab_size=300, special_tokens=["<unk>"]))
    vocab = StaticVocab(tokenizer.to_str())
    texts = ["a man runs", "two  dogs play a guitar"]
    assert not word_local(json.loads(tokenizer.to_str())) and vocab.memo is None
    assert cut(*vocab.encode_strings(texts)) == reference_pieces(vocab, texts)
