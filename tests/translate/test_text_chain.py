"""The model card's text chain (translate/text_chain.py) on real text, with real subword models learned here.

The model directories are built in tmp_path: a model card plus a dummy ``ct2/model.bin`` so that the directory
validates; the text chain never loads the model.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import sentencepiece as spm
from sacremoses import MosesDetokenizer, MosesPunctNormalizer, MosesTokenizer
from subword_nmt.learn_bpe import learn_bpe

from tests.support.taste_data import taste_data
from tests.support.text_files import read_lines
from translate import text_chain
from translate.card import ModelCard, ModelDir, PostprocessSpec, PreprocessSpec, write_card
from translate.text_chain import SourceEncoder, TargetDecoder, moses_words

# Real sentences with the things Moses (de)tokenisation must get right.
TRICKY_EN = [
    "The truth is I don't like Tom.",
    "You don't need to be religious to believe in God.",
    '"Will it rain?" "I hope not."',
    '"But it\'s true!" Dima insisted. "They won\'t let me buy the suit unless I give them another 99 kopeks!"',
    '"Whose socks are these?" "They are my sister\'s."',
    "Africa is a continent; Greenland is not.",
    "Hello? Are you still here?",
    "I can't believe it's not butter (really).",
    "Tom's car costs $300, Mary's 20% more.",
]


def make_model_dir(root: Path, card: ModelCard) -> ModelDir:
    (root / "ct2").mkdir(parents=True, exist_ok=True)
    (root / "ct2" / "model.bin").write_bytes(b"not a model: the text chain never loads it")
    write_card(root, card)
    return ModelDir(root)


def moses_normalise(text: str, lang: str) -> str:
    return MosesPunctNormalizer(lang=lang).normalize(" ".join(text.split())).strip()


def moses_tokenise(text: str, lang: str) -> str:
    return MosesTokenizer(lang=lang).tokenize(moses_normalise(text, lang), escape=False, return_str=True).strip()


def unbpe(tokens: list[str]) -> str:
    return " ".join(tokens).replace("@@ ", "")


@pytest.fixture(scope="module")
def bitext() -> tuple[list[str], list[str]]:
    """Tatoeba: the whole set, or (without ../shared) its bundled first 2,000 lines, all the tests read: BPE codes
    learned on lines 1-400, SentencePiece on lines 1-1,500, held-out lines after those."""
    cs = read_lines(taste_data("bitext/tatoeba.cs", 2000))
    en = read_lines(taste_data("bitext/tatoeba.en", 2000))
    assert len(cs) == len(en)
    return cs, en


@pytest.fixture(scope="module")
def bpe_codes(tmp_path_factory, bitext) -> Path:
    """Real subword-nmt codes learned on a few hundred lines of Moses-tokenised Czech and English."""
    cs, en = bitext
    lines = [moses_tokenise(s, "cs") for s in cs[:400]] + [moses_tokenise(s, "en") for s in en[:400]]
    path = tmp_path_factory.mktemp("bpe") / "bpe.codes"
    with path.open("w", encoding="utf-8") as handle:
        learn_bpe(lines, handle, 500, min_frequency=2)
    assert len(path.read_text(encoding="utf-8").splitlines()) > 100
    return path


def bpe_model_dir(root: Path, codes: Path, source_lang: str) -> ModelDir:
    root.mkdir(parents=True, exist_ok=True)
    (root / "bpe.codes").write_bytes(codes.read_bytes())
    card = ModelCard(name=f"bpe-{source_lang}", source_lang=source_lang, target_lang="en",
                     preprocess=PreprocessSpec(tokenize="moses", subword="bpe", bpe_codes="bpe.codes"),
                     postprocess=PostprocessSpec(subword="bpe", detokenize="moses"), ctranslate2="ct2")
    return make_model_dir(root, card)


@pytest.fixture(scope="module")
def en_bpe(tmp_path_factory, bpe_codes) -> ModelDir:
    """English on both sides, so that encoding and decoding are inverse chains."""
    return bpe_model_dir(tmp_path_factory.mktemp("en-bpe"), bpe_codes, "en")


@pytest.fixture(scope="module")
def cs_bpe(tmp_path_factory, bpe_codes) -> ModelDir:
    return bpe_model_dir(tmp_path_factory.mktemp("cs-bpe"), bpe_codes, "cs")


def test_bpe_encoding_splits_words_and_joins_back_to_the_moses_tokens(en_bpe, bitext):
    encoder = SourceEncoder(en_bpe)
    sentences = bitext[1][1000:1300]  # held out from the BPE codes: many words are split
    encoded = encoder.encode_batch(sentences)
    assert sum(t.endswith("@@") for tokens in encoded for t in tokens) > 200, "words are split into subwords"
    for sentence, tokens in zip(sentences, encoded, strict=True):
        assert tokens and not tokens[-1].endswith("@@")
        assert unbpe(tokens) == moses_tokenise(sentence, "en")


def test_bpe_chain_round_trips_real_english(en_bpe, bitext):
    encoder, decoder = SourceEncoder(en_bpe), TargetDecoder(en_bpe)
    sentences = bitext[1][1000:1500]
    detok = MosesDetokenizer(lang="en")
    round_trips = [decoder.decode(tokens) for tokens in encoder.encode_batch(sentences)]
    for sentence, text in zip(sentences, round_trips, strict=True):
        # the chain is exactly Moses tokenise -> BPE -> un-BPE -> Moses detokenise
        assert text == detok.detokenize(moses_tokenise(sentence, "en").split())
    # and that gives the (normalised) sentence back for nearly every real sentence (Moses itself does not
    # restore e.g. "4:30" or "20°C")
    exact = sum(text == moses_normalise(s, "en") for s, text in zip(sentences, round_trips, strict=True))
    assert exact / len(sentences) >= 0.98
    for sentence in TRICKY_EN:
        tokens = encoder.encode_batch([sentence])[0]
        assert decoder.decode(tokens) == sentence, tokens
    assert "'t" in " ".join(encoder.encode_batch(["I don't know."])[0]).replace("@@ ", ""), "Moses splits n't"


def test_decoding_undoes_a_trailing_separator_and_empty_output(en_bpe):
    decoder = TargetDecoder(en_bpe)
    assert decoder.decode([]) == ""
    assert decoder.decode(["He@@", "llo", "world@@"]) == "Hello world"
    assert decoder.decode(["don", "'t", "go", "!"]) == "don't go!"


def test_czech_quotes_are_normalised(cs_bpe):
    encoder = SourceEncoder(cs_bpe)
    tokens = encoder.encode_batch(["„Bude pršet?“ — „Doufám, že ne.“", "Jak bys definoval „štěstí“?"])
    assert unbpe(tokens[0]) == '" Bude pršet ? " - " Doufám , že ne . "'
    assert unbpe(tokens[1]) == 'Jak bys definoval " štěstí " ?'
    for t in tokens:
        assert not {"„", "“", "—"} & set("".join(t))


def test_whitespace_and_tabs_collapse(cs_bpe, en_bpe):
    for model_dir in (cs_bpe, en_bpe):
        encoder = SourceEncoder(model_dir)
        plain, messy = encoder.encode_batch(["Tom má rád kočky.", "  Tom\tmá \t rád   kočky.\r\n"])
        assert plain == messy and plain


def test_empty_and_whitespace_only_lines_give_no_tokens(cs_bpe):
    encoder = SourceEncoder(cs_bpe)
    assert encoder.encode_batch(["", " ", "\t\t", " \t \r\n ", "Ahoj."])[:4] == [[], [], [], []]
    assert encoder.encode_batch([]) == []


# ---- SentencePiece -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def english_spm(tmp_path_factory, bitext) -> tuple[Path, set[str]]:
    """A tiny unigram SentencePiece model trained here on real English (the first 1,500 lines); returns it and its
    training alphabet."""
    train = [moses_normalise(s, "en") for s in bitext[1][:1500]]
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(train), model_writer=model, vocab_size=300,
                                   character_coverage=1.0, num_threads=1, seed_sentencepiece_size=100000)
    path = tmp_path_factory.mktemp("spm") / "en.spm"
    path.write_bytes(model.getvalue())
    return path, set("".join(train))


def spm_model_dir(root: Path, spm_path: Path, prefix: list[str]) -> ModelDir:
    root.mkdir(parents=True, exist_ok=True)
    (root / "source.spm").write_bytes(spm_path.read_bytes())
    (root / "target.spm").write_bytes(spm_path.read_bytes())
    card = ModelCard(name="spm", source_lang="en", target_lang="en",
                     preprocess=PreprocessSpec(tokenize="none", subword="sentencepiece",
                                               sentencepiece_model="source.spm", prefix_tokens=prefix),
                     postprocess=PostprocessSpec(subword="sentencepiece", sentencepiece_model="target.spm",
                                                 detokenize="none"),
                     ctranslate2="ct2")
    return make_model_dir(root, card)


def test_sentencepiece_chain_round_trips_real_english(tmp_path, english_spm, bitext):
    spm_path, alphabet = english_spm
    model_dir = spm_model_dir(tmp_path, spm_path, prefix=[])
    encoder, decoder = SourceEncoder(model_dir), TargetDecoder(model_dir)
    sentences = [s for s in bitext[1][1500:2000] if set(moses_normalise(s, "en")) <= alphabet] + TRICKY_EN
    assert len(sentences) > 400
    encoded = encoder.encode_batch(sentences)
    assert sum(len(t) for t in encoded) > 3 * sum(len(s.split()) for s in sentences) / 2, "a small vocabulary"
    assert all(t[0].startswith("▁") for t in encoded)
    for sentence, tokens in zip(sentences, encoded, strict=True):
        assert decoder.decode(tokens) == moses_normalise(sentence, "en")
    # whitespace collapses before SentencePiece too; empty input gives no pieces
    assert encoder.encode_batch(["  I\tsee. "]) == encoder.encode_batch(["I see."])
    assert encoder.encode_batch(["", "  \t "]) == [[], []]


def test_prefix_tokens_are_prepended_but_not_to_empty_inputs(tmp_path, english_spm):
    spm_path, _ = english_spm
    plain = SourceEncoder(spm_model_dir(tmp_path / "plain", spm_path, prefix=[]))
    prefixed_dir = spm_model_dir(tmp_path / "prefixed", spm_path, prefix=[">>eng<<"])
    prefixed = SourceEncoder(prefixed_dir)
    assert ModelDir(prefixed_dir.root).card.preprocess.prefix_tokens == [">>eng<<"], "the card keeps the prefix"
    inputs = ["I see.", "", "What about it?", "   "]
    with_prefix, without = prefixed.encode_batch(inputs), plain.encode_batch(inputs)
    assert with_prefix[0] == [">>eng<<", *without[0]]
    assert with_prefix[2] == [">>eng<<", *without[2]]
    assert with_prefix[1] == [] and with_prefix[3] == []



def test_the_shipped_models_source_words_are_stock_sacremoses_on_real_czech():
    """The encoder's Moses steps are core.text's precompiled ones: the words the shipped model sees are stock
    sacremoses' (the slow, obvious reference) on every bundled Czech sentence."""
    from tests.support.taste_data import TASTE_DATA
    from translate.card import DEFAULT_MODEL_DIR
    from translate.text_chain import moses_words

    stock_moses = (MosesPunctNormalizer(lang="cs"), MosesTokenizer(lang="cs"))

    lines = read_lines(TASTE_DATA / "bitext-software" / "libreoffice-help.cs") + read_lines(
        TASTE_DATA / "bitext" / "tatoeba.cs")
    encoder = SourceEncoder(ModelDir(DEFAULT_MODEL_DIR))
    aggressive = ModelDir(DEFAULT_MODEL_DIR).card.preprocess.aggressive_dash_splits
    stock = [moses_words(x, *stock_moses, aggressive) for x in lines]
    assert len(lines) == 2300 and sum(map(bool, stock)) > 2200
    assert [moses_words(x, encoder._normalizer, encoder._tokenizer, aggressive) for x in lines] == stock


def test_text_processes_give_the_chain_of_this_process(en_bpe, bitext):
    """translate.text_processes: the chain in processes of its own, a list cut in slices and put back in order,
    the same text item for item (and a pickled copy starts its own processes)."""
    import pickle

    from translate.text_chain import TextProcesses

    sentences = [*bitext[1][1000:1301], "", "  "]
    encoder, decoder = SourceEncoder(en_bpe), TargetDecoder(en_bpe)
    text = pickle.loads(pickle.dumps(TextProcesses(en_bpe, 2)))
    encoded = text.encode_batch(sentences)
    assert encoded == encoder.encode_batch(sentences)
    assert text.decode_all(encoded) == [decoder.decode(tokens) for tokens in encoded]
    assert text.encode_batch([]) == []


@pytest.mark.parametrize("memo_words", [text_chain.WORD_MEMO_SIZE, 16])
def test_bpe_word_memo_is_subword_nmts_own_segmentation(cs_bpe, bitext, monkeypatch, memo_words):
    """The encoder's per-word memo gives what subword-nmt's process_line gives for every real line, also when the
    memo is full and words leave it; it holds at most its size, and subword-nmt's own cache keeps nothing."""
    monkeypatch.setattr(text_chain, "WORD_MEMO_SIZE", memo_words)
    encoder = SourceEncoder(cs_bpe)
    lines = [moses_words(s, encoder._normalizer, encoder._tokenizer) for s in bitext[0][:2000]]
    lines += ["", "  ", " a  b ", "x\t y"]
    for _ in range(2):  # the second pass from the memo
        assert [encoder._subwords(w) for w in lines] == [encoder._bpe.process_line(w).split() for w in lines]
    assert encoder._bpe.cache == {}
    memo = encoder._pieces_of.cache_info()
    assert memo.maxsize == memo_words and 0 < memo.currsize <= memo_words
    assert memo.hits > 0
