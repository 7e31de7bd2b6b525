"""translate.cached_models: a small model is trained once per data and recipe and then reused from the cache (the
trainer is replaced by one that records its calls and writes a model card: training itself is translate.train's);
an interrupted attempt is resumed, a stale one cleared; the Tatoeba models take the first 12,000 pairs."""

from __future__ import annotations

from pathlib import Path

from paranmt.core.run_definition import DEFINITION_FILE
from tests.support.shared_data import shared_data
from tests.support.text_files import read_lines
from translate import cached_models
from translate.cached_models import TATOEBA_RECIPES, TATOEBA_TRAIN_PAIRS, cached_model, default_cache_dir
from translate.train_recipe import TrainRecipe


def _recording_trainer(monkeypatch) -> list[dict]:
    calls: list[dict] = []

    def train_model(source, target, out: Path, recipe, *, name, device, data_description) -> None:
        calls.append({"source": list(source), "target": list(target), "out": out, "recipe": recipe, "name": name,
                      "resumed": (out / DEFINITION_FILE).is_file(), "device": device})
        out.mkdir(parents=True, exist_ok=True)
        (out / "model_card.yaml").write_text(f"name: {name}\n", encoding="utf-8")

    monkeypatch.setattr(cached_models, "train_model", train_model)
    return calls


def test_a_model_is_trained_once_per_data_and_recipe(tmp_path, monkeypatch):
    calls = _recording_trainer(monkeypatch)
    cs, en = ["Ahoj.", "Pes spí."], ["Hello.", "The dog sleeps."]
    first = cached_model("toy", cs, en, cache_dir=tmp_path)
    assert cached_model("toy", cs, en, cache_dir=tmp_path) == first and len(calls) == 1
    assert first.parent == tmp_path / "models" and first.name.startswith("toy-")
    assert (first / "model_card.yaml").is_file() and not first.with_name(first.name + ".partial").exists()
    assert calls[0]["out"] == first.with_name(first.name + ".partial") and calls[0]["device"] == "cpu"
    other_data = cached_model("toy", cs, [*en[:1], "A dog sleeps."], cache_dir=tmp_path)
    other_recipe = cached_model("toy", cs, en, TrainRecipe(max_epoch=3), cache_dir=tmp_path)
    assert len({first, other_data, other_recipe}) == 3 and len(calls) == 3


def test_an_interrupted_attempt_is_resumed_and_a_stale_one_cleared(tmp_path, monkeypatch):
    calls = _recording_trainer(monkeypatch)
    cs, en = ["Ahoj."], ["Hello."]
    target = cached_model("toy", cs, en, cache_dir=tmp_path)
    partial = target.with_name(target.name + ".partial")
    for leftover, resumed in (({DEFINITION_FILE: "{}"}, True), ({"junk.bin": "x"}, False)):
        (target / "model_card.yaml").unlink()
        partial.mkdir()
        for name, content in leftover.items():
            (partial / name).write_text(content, encoding="utf-8")
        assert cached_model("toy", cs, en, cache_dir=tmp_path) == target
        assert calls[-1]["resumed"] is resumed and not (target / "junk.bin").exists()


def test_the_tatoeba_model_learns_the_first_pairs_with_its_recipe(tmp_path, monkeypatch):
    calls = _recording_trainer(monkeypatch)
    bitext = shared_data("bitext")
    cached_models.tatoeba_model(bitext, "small", cache_dir=tmp_path)
    assert calls[0]["name"] == "tatoeba-small-cs-en" and calls[0]["recipe"] == TATOEBA_RECIPES["small"]
    assert calls[0]["source"] == read_lines(bitext / "tatoeba.cs")[:TATOEBA_TRAIN_PAIRS]
    assert calls[0]["target"] == read_lines(bitext / "tatoeba.en")[:TATOEBA_TRAIN_PAIRS]


def test_the_cache_folder_follows_paranmt_cache(monkeypatch):
    monkeypatch.setenv("PARANMT_CACHE", "~/elsewhere")
    assert default_cache_dir() == Path.home() / "elsewhere"
    monkeypatch.delenv("PARANMT_CACHE")
    assert default_cache_dir() == Path.home() / ".cache" / "paranmt"
