"""A tiny sentence-transformers teacher for the static encoder's tests (tests/train_embeddings/static/ and the
model2vec export's card): a 1-layer, 32-d BERT over a WordPiece vocabulary of the bundled pairs' words, mean
pooling, built here from nothing downloaded. Needs the ``static`` and ``st`` extras."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from tests.support.training_pairs import pair_lines


def tiny_teacher(root: Path, extra: Sequence[str] = ()) -> Path:
    """The teacher saved with ``SentenceTransformer.save`` in ``root/st`` (its vocabulary: the words of the first
    300 bundled pairs and of ``extra``); returns that folder."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from tokenizers import Tokenizer
    from tokenizers.models import WordPiece
    from tokenizers.normalizers import BertNormalizer
    from tokenizers.pre_tokenizers import BertPreTokenizer
    from transformers import BertConfig, BertModel, BertTokenizerFast

    words = sorted({w for line in pair_lines("en", 300) + pair_lines("mt", 300) + tuple(extra)
                    for w in re.findall(r"[a-z]+", line.lower())})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *".,!?'-\"", *words, "##s", "##ing"]
    wordpiece = Tokenizer(WordPiece({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    wordpiece.normalizer = BertNormalizer(lowercase=True)
    wordpiece.pre_tokenizer = BertPreTokenizer()
    tokenizer = BertTokenizerFast(tokenizer_object=wordpiece, unk_token="[UNK]", pad_token="[PAD]",
                                  cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")
    torch.manual_seed(0)
    bert = BertModel(BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                                intermediate_size=64, max_position_embeddings=64))
    hf = root / "hf"
    bert.save_pretrained(hf)
    tokenizer.save_pretrained(hf)
    model = SentenceTransformer(modules=[Transformer(str(hf)), Pooling(32, pooling_mode="mean")], device="cpu")
    model.save(str(root / "st"))
    return root / "st"


# Every piece of these is in the teacher's vocabulary: sentence-transformers' StaticEmbedding keeps [UNK] pieces
# in its mean where model2vec and paranmt drop them, so the exports agree exactly on text without unknown pieces.
PROBE = ["A man is playing a guitar.", "Two dogs run in the snow.", "A woman is sitting on a bench."]


def static_extras() -> None:
    """Skip the test unless the ``static`` and ``st`` extras are installed."""
    import pytest

    from paranmt.core.hf_imports import hide_broken_torchaudio

    hide_broken_torchaudio()
    pytest.importorskip("model2vec.distill", reason="the static extra (model2vec, skeletoken) is not installed")
    pytest.importorskip("sentence_transformers", reason="the st extra is not installed")


def static_only_run(root: Path, teacher: Path) -> Path:
    """A ``static`` model distilled from ``teacher`` (8-d) and trained 4 steps on 120 real pairs: its run folder."""
    from tests.support.training_pairs import tatoeba_pairs_parquet, tiny
    from train_embeddings.static.teacher import STATIC
    from train_embeddings.training.trainer import train

    data = tatoeba_pairs_parquet(root / "tatoeba-pairs", n=120)
    cfg = tiny(STATIC, data, teacher=str(teacher), static_pca_dims=8, static_cache=str(root / "cache"), lr=0.05)
    train(cfg, root / "run", evaluate_fn=None, progress=False)
    return root / "run"
