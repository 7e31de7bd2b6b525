"""ModelSpec and the component names (train_embeddings/models/spec.py): the names TrainConfig accepts, what each
kind of spec reads, JSON round trips and specs saved before the newer fields existed."""

from __future__ import annotations

import json

import pytest

from configs.schema import TrainConfig
from train_embeddings.models.spec import COMPONENTS, RECURRENT, ModelSpec


def test_component_lists_agree():
    assert set(TrainConfig.parse_model(",".join(COMPONENTS))[0]) == set(COMPONENTS)
    assert {"rnn", "irnn", "lstm-peep", "lstm-peep-nog"} <= RECURRENT and not RECURRENT & {"proj", "dan", "cse"}


def test_old_specs_still_load():
    old = {"components": ["lstm"], "combine": "concat", "word_dim": 300, "trigram_dim": 300, "lstm_dim": 300,
           "n_words": 10, "n_trainable_words": 10, "n_trigrams": 0,
           "tokenizer": {"kind": "moses", "lang": "en", "normalize_punctuation": True, "escape": False,
                         "lowercase": True}}
    spec = ModelSpec.from_json(old)
    assert spec.peep_pool == "last" and spec.cse_widths == [1, 2, 3] and spec.hidden_size == 300
    assert ModelSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec



# components -> (uses_words, uses_trigrams, uses_pieces, uses_static, uses_tokens), worked out from the docs: every
# component but trigram, sp and static reads words; all but static read Moses tokens.
READS = {
    ("word",): (True, False, False, False, True),
    ("trigram",): (False, True, False, False, True),
    ("sp",): (False, False, True, False, True),
    ("static",): (False, False, False, True, False),
    ("cse",): (True, False, False, False, True),
    ("blstm-max",): (True, False, False, False, True),
    ("static", "trigram"): (False, True, False, True, True),
    ("sp", "word", "trigram"): (True, True, True, False, True),
    ("static", "irnn"): (True, False, False, True, True),
}


@pytest.mark.parametrize("components", list(READS))
def test_what_each_spec_reads(components):
    spec = ModelSpec(components=list(components))
    got = (spec.uses_words, spec.uses_trigrams, spec.uses_pieces, spec.uses_static, spec.uses_tokens)
    assert got == READS[components]


def test_hidden_size_is_the_word_size_unless_set():
    assert ModelSpec(components=["proj"], word_dim=50).hidden_size == 50
    assert ModelSpec(components=["proj"], word_dim=50, hidden_dim=12).hidden_size == 12


def test_every_field_survives_json():
    spec = ModelSpec(components=["word", "cse"], combine="sum", word_dim=12, n_words=40, n_trainable_words=30,
                     hidden_dim=9, dan_layers=3, dan_activation="relu", rnn_activation="relu", peep_pool="mean",
                     cse_widths=[2, 4], cse_maps=6, sp_dim=7, n_pieces=99, static_dim=5, n_static_tokens=77,
                     static_teacher_dim=3, tokenizer={"kind": "whitespace", "lowercase": False})
    data = json.loads(json.dumps(spec.to_json()))
    assert data["cse_widths"] == [2, 4] and data["tokenizer"] == {"kind": "whitespace", "lowercase": False}
    assert ModelSpec.from_json(data) == spec
