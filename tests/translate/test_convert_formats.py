"""Every converter on a model in its ecosystem's real on-disk format, built here, converted with
``paranmt convert``, decoded by the pipeline's translator and checked against the source framework.

One tiny random Marian transformer (2+2 layers of 32, SentencePiece vocabulary learnt on toy Czech/English) is the
reference: a Hugging Face ``MarianMTModel`` saved with ``save_pretrained``; the same weights under Marian's own
parameter names in an OPUS-MT release layout (``*.npz`` with ``special:model.yml``, ``decoder.yml``, ``*.vocab.yml``,
``source.spm``/``target.spm``); and an Argos Translate ``.argosmodel`` holding its CTranslate2 conversion. The
source framework's decoding is Hugging Face's beam search for the Hugging Face and Marian files (Marian itself is a
C++ toolkit that does not install here; ``transformers``' Marian port is its reference implementation) and
CTranslate2 called the way Argos Translate calls it for the Argos package (argostranslate is CTranslate2 +
SentencePiece + a stanza sentence splitter that downloads its model at run time). The fairseq converter is checked
against fairseq's own ``SequenceGenerator`` on a checkpoint trained by ``translate.train``.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import sentencepiece as spm
import yaml

from configs.schema import TranslateConfig
from paranmt.cli.convert_command import main as convert_main
from tests.support.toy_corpus import make_toy_corpus
from translate.card import ModelDir
from translate.convert import import_transformers
from translate.cpu_kernel import FASTEST, import_ctranslate2
from translate.loading import load_translator
from translate.translator import Status, Translation

BEAM, MAX_LEN = 4, 40
D_MODEL, LAYERS, HEADS, FFN = 32, 2, 2, 64


def config(model: Path, backend: str = "ctranslate2", **overrides) -> TranslateConfig:
    values = {"model": model, "backend": backend, "device": "cpu", "compute_type": "float32", "threads": 1,
              "beam_size": BEAM, "max_decoding_length": MAX_LEN}
    return TranslateConfig(**{**values, **overrides})


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    return make_toy_corpus(600, seed=11)[0][500:]


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory) -> tuple[Path, list[str]]:
    """A joint SentencePiece model on toy Czech + English and the Marian vocabulary over its pieces."""
    cs, en = make_toy_corpus(500, seed=11)
    buffer = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(cs + en), model_writer=buffer, vocab_size=150,
                                   character_coverage=1.0, num_threads=1, hard_vocab_limit=False)
    path = tmp_path_factory.mktemp("spm") / "joint.spm"
    path.write_bytes(buffer.getvalue())
    processor = spm.SentencePieceProcessor(model_file=str(path))
    pieces = [processor.id_to_piece(i) for i in range(processor.get_piece_size())]
    # Marian's vocabulary: </s> 0, <unk> 1, then the pieces (SentencePiece's own control symbols left out).
    vocab = ["</s>", "<unk>", *(p for p in pieces if p not in ("<unk>", "<s>", "</s>"))]
    return path, vocab


@pytest.fixture(scope="module")
def hf_model(tmp_path_factory, spm_model):
    """A random MarianMTModel with a MarianTokenizer, saved with save_pretrained (as on the Hugging Face hub)."""
    pytest.importorskip("transformers", reason="the test extra installs transformers")
    import torch

    transformers = import_transformers()

    spm_path, vocab = spm_model
    folder = tmp_path_factory.mktemp("hf") / "opus-mt-tiny-cs-en"
    folder.mkdir()
    for name in ("source.spm", "target.spm"):
        (folder / name).write_bytes(spm_path.read_bytes())
    vocab_json = folder / "vocab.json"
    vocab_json.write_text(json.dumps({token: i for i, token in enumerate([*vocab, "<pad>"])}), encoding="utf-8")
    pad = len(vocab)
    torch.manual_seed(0)
    model_config = transformers.MarianConfig(
        vocab_size=pad + 1, d_model=D_MODEL, encoder_layers=LAYERS, decoder_layers=LAYERS,
        encoder_attention_heads=HEADS, decoder_attention_heads=HEADS, encoder_ffn_dim=FFN, decoder_ffn_dim=FFN,
        max_position_embeddings=128, activation_function="swish", pad_token_id=pad, eos_token_id=0,
        decoder_start_token_id=pad, forced_eos_token_id=None, scale_embedding=True, dropout=0.0,
        attention_dropout=0.0, activation_dropout=0.0, share_encoder_decoder_embeddings=True)
    model = transformers.MarianMTModel(model_config)
    with torch.no_grad():
        model.final_logits_bias[0, pad] = -1e9  # <pad> is never generated
    train_briefly(model, spm_path, vocab, pad)
    model.eval()
    model.save_pretrained(folder)
    tokenizer = transformers.MarianTokenizer(str(folder / "source.spm"), str(folder / "target.spm"),
                                             str(vocab_json), source_lang="cs", target_lang="en")
    tokenizer.save_pretrained(folder)
    return folder, model, vocab


def train_briefly(model, spm_path: Path, vocab: list[str], pad: int, steps: int = 300) -> None:
    """A few hundred Adam steps on toy pairs, so that beam search meets real, confident distributions (a random
    model only repeats a token or stops at once). Marian's decoder starts from a zero embedding: the <pad> row
    stays zero."""
    import torch

    cs, en = make_toy_corpus(500, seed=11)
    processor = spm.SentencePieceProcessor(model_file=str(spm_path))
    index = {token: i for i, token in enumerate(vocab)}

    def ids(lines: list[str]) -> list[list[int]]:
        return [[index.get(p, 1) for p in pieces] + [0] for pieces in processor.encode(lines, out_type=str)]

    src, tgt = ids(cs), ids(en)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    generator = torch.Generator().manual_seed(0)
    model.train()
    for _ in range(steps):
        batch = torch.randint(0, len(src), (32,), generator=generator).tolist()
        width_s, width_t = max(len(src[i]) for i in batch), max(len(tgt[i]) for i in batch)
        inputs = torch.tensor([src[i] + [pad] * (width_s - len(src[i])) for i in batch])
        labels = torch.tensor([tgt[i] + [-100] * (width_t - len(tgt[i])) for i in batch])
        loss = model(input_ids=inputs, attention_mask=(inputs != pad).long(), labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.model.shared.weight[pad].zero_()


@pytest.fixture(scope="module")
def hf_reference(hf_model):
    """Hugging Face's own beam search on source pieces: (best hypothesis, its normalised score) for each. The Hugging
    Face and the Marian conversion encode the toy sentences to the same pieces: each is decoded once."""
    _, model, vocab = hf_model
    decoded: dict[tuple[str, ...], tuple[list[str], float]] = {}

    def reference(pieces: list[list[str]]) -> list[tuple[list[str], float]]:
        missing = list(dict.fromkeys(tuple(p) for p in pieces if tuple(p) not in decoded))
        decoded.update(zip(missing, hf_beam_search(model, vocab, missing), strict=True))
        return [decoded[tuple(p)] for p in pieces]

    return reference


def hf_beam_search(model, vocab: list[str], pieces: list[tuple[str, ...]]) -> list[tuple[list[str], float]]:
    """Hugging Face's own beam search on the given source pieces: (best hypothesis, its normalised score)."""
    import torch

    index = {token: i for i, token in enumerate(vocab)}
    out = []
    for source in pieces:
        ids = torch.tensor([[index.get(p, 1) for p in source] + [0]])
        with torch.no_grad():
            result = model.generate(ids, num_beams=BEAM, max_new_tokens=MAX_LEN, length_penalty=1.0,
                                    early_stopping=True, do_sample=False, num_return_sequences=1,
                                    return_dict_in_generate=True, output_scores=True, min_length=0,
                                    bad_words_ids=None, no_repeat_ngram_size=0, repetition_penalty=1.0)
        tokens = result.sequences[0].tolist()[1:]  # after the decoder start
        if tokens and tokens[-1] == 0:
            tokens = tokens[:-1]
        out.append(([vocab[t] for t in tokens if t < len(vocab)], float(result.sequences_scores[0])))
    return out


def agreement(ours: list[Translation], reference: list[tuple[list[str], float]]) -> tuple[int, float]:
    """(identical best hypotheses, max score difference among them where decoding ended before the length cap:
    a hypothesis cut at the cap has no EOS, and the frameworks normalise such a score differently)."""
    same = [(t, score) for t, (tokens, score) in zip(ours, reference, strict=True) if list(t.tokens) == tokens]
    return len(same), max((abs(t.score - score) for t, score in same if not t.hit_length_cap), default=float("nan"))


def decode(model_dir: Path, sentences: list[str]) -> list[Translation]:
    out = load_translator(config(model_dir)).translate(sentences)
    assert all(t.status is Status.OK for t in out)
    assert sum(bool(t.tokens) and not t.hit_length_cap for t in out) >= len(out) // 2, "mostly ordinary output"
    return out


# ---- Hugging Face Marian ----------------------------------------------------------------------------------------


def test_hugging_face_marian_model(tmp_path, hf_model, hf_reference, sentences):
    folder, _, _ = hf_model
    out = tmp_path / "hf-converted"
    assert convert_main(["hf-marian", "--input", str(folder), "--out", str(out)]) == 0
    card = ModelDir(out).card
    assert card.preprocess.subword == "sentencepiece" and card.preprocess.tokenize == "none"
    ours = decode(out, sentences)
    pieces = load_translator(config(out)).encoder.encode_batch(sentences)
    same, max_diff = agreement(ours, hf_reference(pieces))
    print(f"agreement with transformers: top-1 {same}/{len(sentences)}, max score difference {max_diff:.1e}")
    assert same == len(sentences), f"top-1 equal for {same}/{len(sentences)}"
    assert max_diff < 1e-4


# ---- Marian / OPUS-MT -------------------------------------------------------------------------------------------


def write_marian_release(hf_model, folder: Path) -> Path:
    """The Hugging Face weights under Marian's parameter names, in an OPUS-MT release folder."""
    source, model, vocab = hf_model
    folder.mkdir(parents=True)
    state = {k: v.detach().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    weights: dict[str, np.ndarray] = {
        "Wemb": state["model.shared.weight"][: len(vocab)],
        "decoder_ff_logit_out_b": state["final_logits_bias"][:, : len(vocab)],
    }

    def linear(name: str, hf: str) -> None:
        weights[f"{name.rsplit('_', 1)[0]}_W{name.rsplit('_', 1)[1]}"] = state[f"{hf}.weight"].T
        weights[f"{name.rsplit('_', 1)[0]}_b{name.rsplit('_', 1)[1]}"] = state[f"{hf}.bias"][None, :]

    def norm(name: str, hf: str) -> None:
        weights[f"{name}_ln_scale"] = state[f"{hf}.weight"][None, :]
        weights[f"{name}_ln_bias"] = state[f"{hf}.bias"][None, :]

    for side in ("encoder", "decoder"):
        for i in range(LAYERS):
            hf, marian = f"model.{side}.layers.{i}", f"{side}_l{i + 1}"
            attentions = [("self", "self_attn")] + ([("context", "encoder_attn")] if side == "decoder" else [])
            for kind, hf_kind in attentions:
                for part, proj in (("q", "q_proj"), ("k", "k_proj"), ("v", "v_proj"), ("o", "out_proj")):
                    linear(f"{marian}_{kind}_{part}", f"{hf}.{hf_kind}.{proj}")
                norm(f"{marian}_{kind}_Wo", f"{hf}.{hf_kind}_layer_norm")
            linear(f"{marian}_ffn_1", f"{hf}.fc1")
            linear(f"{marian}_ffn_2", f"{hf}.fc2")
            norm(f"{marian}_ffn_ffn", f"{hf}.final_layer_norm")
    marian_config = {"type": "transformer", "enc-depth": LAYERS, "dec-depth": LAYERS, "dim-emb": D_MODEL,
                     "transformer-heads": HEADS, "transformer-dim-ffn": FFN, "transformer-ffn-activation": "swish",
                     "transformer-preprocess": "", "transformer-postprocess": "dan",
                     "transformer-postprocess-emb": "d", "transformer-decoder-autoreg": "self-attention",
                     "transformer-no-projection": False, "transformer-guided-alignment-layer": "last",
                     "tied-embeddings-all": True, "dim-vocabs": [len(vocab), len(vocab)]}
    encoded = yaml.safe_dump(marian_config).encode() + b"\x00"
    weights["special:model.yml"] = np.frombuffer(encoded, dtype=np.int8)
    npz = "opus.spm150-spm150.transformer-align.model1.npz.best-perplexity.npz"
    np.savez(folder / npz, **weights)
    vocab_file = "opus.spm150-spm150.vocab.yml"
    (folder / vocab_file).write_text(yaml.safe_dump({t: i for i, t in enumerate(vocab)}, allow_unicode=True,
                                                    sort_keys=False), encoding="utf-8")
    (folder / "decoder.yml").write_text(yaml.safe_dump(
        {"models": [npz], "vocabs": [vocab_file, vocab_file], "beam-size": 6, "normalize": 0.6,
         "word-penalty": 0, "mini-batch": 16, "maxi-batch": 100, "maxi-batch-sort": "src", "relative-paths": True}))
    for name in ("source.spm", "target.spm"):
        (folder / name).write_bytes((source / name).read_bytes())
    return folder


def test_marian_opus_mt_release(tmp_path, hf_model, hf_reference, sentences):
    release = write_marian_release(hf_model, tmp_path / "opus-mt-tiny-cs-en")
    out = tmp_path / "marian-converted"
    assert convert_main(["marian", "--input", str(release), "--out", str(out)]) == 0
    card = ModelDir(out).card
    assert card.preprocess.normalize_punctuation and card.postprocess.subword == "sentencepiece"
    ours = decode(out, sentences)
    pieces = load_translator(config(out)).encoder.encode_batch(sentences)
    same, max_diff = agreement(ours, hf_reference(pieces))
    print(f"agreement with transformers: top-1 {same}/{len(sentences)}, max score difference {max_diff:.1e}")
    assert same == len(sentences), f"top-1 equal for {same}/{len(sentences)}"
    assert max_diff < 1e-4


# ---- Argos Translate --------------------------------------------------------------------------------------------


def test_argos_package(tmp_path, hf_model, spm_model, sentences):
    ctranslate2 = import_ctranslate2(FASTEST)

    folder, _, _ = hf_model
    ct2 = tmp_path / "ct2"
    assert convert_main(["hf-marian", "--input", str(folder), "--out", str(ct2)]) == 0
    root = tmp_path / "pkg" / "translate-cs_en-1_0"
    root.mkdir(parents=True)
    (root / "metadata.json").write_text(json.dumps(
        {"package_version": "1.0", "argos_version": "1.9.0", "from_code": "cs", "from_name": "Czech",
         "to_code": "en", "to_name": "English", "type": "translate", "languages": []}))
    (ct2 / "ct2").rename(root / "model")
    (root / "sentencepiece.model").write_bytes(spm_model[0].read_bytes())
    (root / "README.md").write_text("tiny random test model")
    package = tmp_path / "translate-cs_en-1_0.argosmodel"
    with zipfile.ZipFile(package, "w") as archive:
        for path in sorted(root.rglob("*")):
            archive.write(path, path.relative_to(root.parent).as_posix())

    out = tmp_path / "argos-converted"
    assert convert_main(["argos", "--input", str(package), "--out", str(out)]) == 0
    ours = decode(out, sentences)
    # Argos Translate's own decoding: SentencePiece pieces of the raw text into ctranslate2.Translator.
    processor = spm.SentencePieceProcessor(model_file=str(root / "sentencepiece.model"))
    translator = ctranslate2.Translator(str(root / "model"), device="cpu", compute_type="float32")
    results = translator.translate_batch(processor.encode(sentences, out_type=str), beam_size=BEAM,
                                         return_scores=True, max_decoding_length=MAX_LEN, length_penalty=1.0,
                                         min_decoding_length=0)
    reference = [(r.hypotheses[0], r.scores[0]) for r in results]
    same, max_diff = agreement(ours, reference)
    print(f"agreement with CTranslate2 as Argos calls it: top-1 {same}/{len(sentences)}, max diff {max_diff:.1e}")
    assert same == len(sentences) and max_diff < 1e-5
    assert [t.hypothesis for t in ours] == [processor.decode(h) for h, _ in reference]


# ---- fairseq ----------------------------------------------------------------------------------------------------


def test_fairseq_checkpoint_trained_here(tmp_path, toy_model, sentences):
    """A checkpoint from translate.train, converted on its own, against fairseq's SequenceGenerator."""
    out = tmp_path / "fairseq-converted"
    assert convert_main(["fairseq", "--input", str(toy_model / "fairseq" / "checkpoint_best.pt"),
                         "--dicts", str(toy_model / "fairseq"), "--bpe-codes", str(toy_model / "bpe.codes"),
                         "--out", str(out)]) == 0
    ours = decode(out, sentences)
    theirs = load_translator(config(out, "fairseq")).translate(sentences)
    same, max_diff = agreement(ours, [(list(t.tokens), t.score) for t in theirs])
    print(f"agreement with fairseq: top-1 {same}/{len(sentences)}, max score difference {max_diff:.1e}")
    assert same == len(sentences) and max_diff < 1e-4
