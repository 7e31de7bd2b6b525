"""Train a back-translation model: ``paranmt train-nmt --cs a.cs --en a.en --out models/x``.

The recipe (one for every size, the demo and test models included):

1. Moses punctuation normalisation and tokenisation of both sides (sacremoses, the chain the pipeline applies at
   translation time); pairs with an empty side or more than ``max_len`` subwords are dropped.
2. A held-out validation split (``--valid-cs/--valid-en``, or ``valid_fraction`` of the pairs, seeded).
3. Joint BPE with subword-nmt, learned on the training split. BPE rather than SentencePiece: the pipeline's text
   chain is Moses tokenisation first (as ParaNMT's Nematus model had), and BPE over Moses tokens is the classic
   WMT recipe that the shared ``small-cs-en`` model and the demo model use, so every trained model shares one
   chain; SentencePiece models come in through ``translate.convert`` (OPUS-MT, Argos).
4. ``fairseq-preprocess`` (binarisation) and ``fairseq-train`` of a transformer: validation every epoch, early
   stopping (``patience``), ``fp16`` on GPUs, every visible GPU through fairseq's own distributed training.
5. Averaging of the last ``average_last`` epoch checkpoints, conversion to CTranslate2 (``--quantization int8``
   optional) and a model card with the recipe, the data, the number of updates, the training time and the
   validation perplexity: the model directory the pipeline consumes. ``training_curve.png`` plots the losses.

A run folder is resumable: rerun the same command after a kill and it continues from the last finished stage and
fairseq's last checkpoint. A folder holding a different run is refused unless ``--overwrite``.

The recipe's settings are :class:`TrainRecipe` and its :data:`PRESETS`, here; :mod:`translate.train` runs it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from paranmt.core.run_definition import MAY_CHANGE


class TrainRecipe(BaseModel):
    """Everything that decides what is trained. Presets: :data:`PRESETS`. The budget (``max_epoch``,
    ``max_update``, ``max_hours``, ``patience``) and ``threads`` may change between a run and its resumption (to
    train longer, or stop sooner): they are no part of the run's definition."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # The defaults are the tiny preset: the demo model and the tests' models.
    bpe_merges: int = Field(default=2000, gt=0, description="BPE merges learnt (subword-nmt) on the Czech and "
                            "English training sides together: one codes file for both")
    arch: str = Field(default="transformer", description="fairseq architecture; the dimensions below override it")
    layers: int | None = Field(default=2, gt=0, description="encoder layers, and as many decoder layers (None: the "
                               "arch's own)")
    embed_dim: int | None = Field(default=64, gt=0, description="embedding and model size of encoder and decoder "
                                  "(None: the arch's own)")
    ffn_dim: int | None = Field(default=256, gt=0, description="feed-forward inner size of every layer (None: the "
                                "arch's own)")
    heads: int | None = Field(default=4, gt=0, description="attention heads per layer (None: the arch's own)")
    share_all_embeddings: bool = Field(default=False, description="joint dictionary; else tied decoder in/out")
    dropout: float = Field(default=0.1, ge=0, lt=1, description="dropout probability")
    label_smoothing: float = Field(default=0.0, ge=0, lt=1, description="label-smoothed cross-entropy with this "
                                   "weight (0: plain cross-entropy)")
    weight_decay: float = Field(default=0.0, ge=0, description="Adam's weight decay")
    clip_norm: float = Field(default=0.0, ge=0, description="clip the gradient norm to this (0: no clipping)")
    lr: float = Field(default=0.005, gt=0, description="peak learning rate of Adam, reached after the warm-up and "
                      "then decayed with the inverse square root of the update number")
    warmup_updates: int = Field(default=200, ge=0, description="updates over which the learning rate rises "
                                "linearly to lr")
    max_tokens: int = Field(default=4096, gt=0, description="subword tokens per batch (on each GPU when "
                            "several train)")
    update_freq: int = Field(default=1, gt=0, description="batches whose gradients are accumulated into one "
                             "update")
    max_epoch: int = Field(default=20, ge=0, json_schema_extra=MAY_CHANGE, description="0: no epoch limit")
    max_update: int = Field(default=0, ge=0, json_schema_extra=MAY_CHANGE, description="0: no update limit")
    max_hours: float = Field(default=0.0, ge=0, json_schema_extra=MAY_CHANGE,
                             description="training wall-clock budget, summed over resumptions")
    patience: int = Field(default=0, ge=0, json_schema_extra=MAY_CHANGE,
                          description="stop after this many validations without improvement")
    average_last: int = Field(default=0, ge=0, description="average the last N epoch checkpoints (0: best)")
    save_interval_updates: int = Field(default=0, ge=0, description="also checkpoint (and validate) every N "
                                       "updates, so a killed run loses less")
    valid_fraction: float = Field(default=0.05, gt=0, lt=1, description="share of the pairs held out for "
                                  "validation when no --valid-cs/--valid-en is given (at most valid_max)")
    valid_max: int = Field(default=0, ge=0, description="cap on the held-out pairs (0: none)")
    max_len: int = Field(default=250, gt=0, description="pairs with a longer side (subwords) are dropped")
    fp16: bool = Field(default=True, description="mixed precision on GPUs (ignored on CPU)")
    seed: int = Field(default=1, description="seed of the held-out split, the binarisation and fairseq's "
                      "training")
    threads: int = Field(default=0, ge=0, json_schema_extra=MAY_CHANGE,
                         description="CPU threads for fairseq (0: all cores)")


# tiny: the demo model and the tests' models (seconds to a minute on 2 cores, no label smoothing so toy languages
# are learnt to near-perfect confidence). cpu-small: the recipe of ../shared/models/small-cs-en (3+3 layers of
# 256; its time: docs/translate-models.md). base / big: fairseq's WMT transformer-base and transformer-big recipes
# (Vaswani et al. 2017; Ott et al. 2018 "Scaling NMT"), fp16, for GPUs.
_TRANSFORMER = {"layers": None, "embed_dim": None, "ffn_dim": None, "heads": None}  # the arch's own sizes
PRESETS: dict[str, TrainRecipe] = {
    "tiny": TrainRecipe(),
    "cpu-small": TrainRecipe(bpe_merges=8000, layers=3, embed_dim=256, ffn_dim=1024, heads=4, lr=0.002,
                             warmup_updates=1000, max_tokens=4096, max_epoch=40, patience=5, average_last=5,
                             save_interval_updates=500, label_smoothing=0.1, valid_fraction=0.02, valid_max=2000),
    "base": TrainRecipe(**_TRANSFORMER, bpe_merges=32000, arch="transformer_wmt_en_de", share_all_embeddings=True,
                        dropout=0.1, label_smoothing=0.1, weight_decay=0.0001, lr=0.0007, warmup_updates=4000,
                        max_tokens=4096, update_freq=8, max_epoch=50, patience=10, average_last=5,
                        save_interval_updates=2000, valid_fraction=0.01, valid_max=3000),
    "big": TrainRecipe(**_TRANSFORMER, bpe_merges=32000, arch="transformer_vaswani_wmt_en_de_big",
                       share_all_embeddings=True, dropout=0.3, label_smoothing=0.1, weight_decay=0.0001, lr=0.0005,
                       warmup_updates=4000, max_tokens=3584, update_freq=16, max_epoch=50, patience=10,
                       average_last=5, save_interval_updates=2000, valid_fraction=0.01, valid_max=3000),
}
