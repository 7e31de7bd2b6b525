"""paranmt.core.run_definition: what a definition holds, how two are compared and how a refusal reads; and the one
rule as each tool that writes a run folder (``paranmt run``, ``paranmt train``, ``paranmt train-nmt``) applies it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configs import load_config
from configs.schema import ParaNMTConfig, TrainConfig
from paranmt.cli.train_nmt_command import main as train_nmt_main
from paranmt.core.run_definition import (
    DEFINITION_FILE,
    MAY_CHANGE,
    SHOWN_KEYS,
    DifferentRun,
    changed_keys,
    check_same_run,
    definition_text,
    read_definition,
    run_definition,
)
from pipeline.run import main as run_main
from tests.support.training_pairs import tatoeba_pairs_parquet
from train_embeddings.train_command import main as train_main
from translate import train as nmt_train
from translate.train_recipe import TrainRecipe

# The settings a rerun may change and still be the same run, as the schemas mark them.
CONFIG_MAY_CHANGE = {"pipeline.runner", "pipeline.beam_options", "pipeline.cache_dir", "translate.device_index",
                     "translate.threads", "translate.text_processes", "train.unseen_words", "train.unseen_words_ridge",
                     "train.epochs", "train.lr", "train.grad_clip", "train.max_steps", "train.device", "train.threads",
                     "train.evals_per_epoch", "train.select_metric", "train.log_every", "train.encode_batch_size"}
RECIPE_MAY_CHANGE = {"max_epoch", "max_update", "max_hours", "patience", "threads"}


def _flat_keys(value: object, prefix: str = "") -> set[str]:
    if isinstance(value, dict) and value:
        return {k for key, item in value.items() for k in _flat_keys(item, f"{prefix}{key}.")}
    return {prefix.rstrip(".")}


def _marked(model: type, prefix: str = "") -> set[str]:
    """The fields of ``model`` (and of its nested sections) whose schema marks them MAY_CHANGE."""
    marked = set()
    for name, field in model.model_fields.items():
        if field.json_schema_extra == MAY_CHANGE:
            marked.add(f"{prefix}{name}")
        elif isinstance(field.annotation, type) and hasattr(field.annotation, "model_fields"):
            marked |= _marked(field.annotation, f"{prefix}{name}.")
    return marked


def test_the_schemas_mark_what_a_rerun_may_change():
    assert _marked(ParaNMTConfig) == CONFIG_MAY_CHANGE
    assert _marked(TrainRecipe) == RECIPE_MAY_CHANGE


def test_a_definition_is_every_setting_but_those_a_rerun_may_change():
    config = load_config("sample")
    definition = run_definition(config, inputs=[{"cs": "a.cs"}])
    everything = _flat_keys(config.model_dump(mode="json"))
    assert _flat_keys(definition) == (everything - CONFIG_MAY_CHANGE) | {"inputs"}
    assert definition["inputs"] == [{"cs": "a.cs"}] and definition["translate"]["beam_size"] == 12
    # A model given as a part is nested under its name, less its own MAY_CHANGE fields.
    train = run_definition(train=config.train, seed=5)
    assert set(train) == {"train", "seed"} and "lr" not in train["train"] and train["train"]["model"] == "word"
    recipe = run_definition(TrainRecipe(), data="x")
    assert set(recipe) == set(TrainRecipe.model_fields) - RECIPE_MAY_CHANGE | {"data"}


def test_only_settings_a_rerun_may_change_keep_the_same_run():
    config = load_config("sample")
    faster = load_config("sample", ["translate.threads=3", "translate.text_processes=2", "pipeline.runner=X",
                                    "pipeline.cache_dir=/tmp/c", "train.lr=0.5", "train.epochs=9"])
    assert run_definition(config) == run_definition(faster)
    assert not check_same_run(definition_text(run_definition(config)), "runs/x/definition.json",
                              run_definition(faster), overwrite=False)
    other = load_config("sample", ["translate.beam_size=4"])
    assert changed_keys(run_definition(config), run_definition(other)) == ["translate.beam_size 12 -> 4"]


def test_changed_keys_are_dotted_sorted_json_values_and_name_a_missing_side():
    stored = {"a": {"b": 1, "c": [1, 2]}, "d": "x", "e": {}, "gone": True}
    current = {"a": {"b": 2, "c": [1, 2]}, "d": "y", "e": {"f": None}, "new": 1.5}
    assert changed_keys(stored, current) == ['a.b 1 -> 2', 'd "x" -> "y"', "e {} -> absent", "e.f absent -> null",
                                             "gone true -> absent", "new absent -> 1.5"]
    assert changed_keys(stored, stored) == []
    assert changed_keys({}, {"a": 1}) == ["a absent -> 1"]


def test_a_different_run_is_refused_in_one_wording_naming_at_most_three_keys():
    stored = {"seed": 1, "train": {"dim": 300, "model": "word"}, "inputs": ["a"], "z": 0}
    recorded, where = definition_text(stored), Path("runs/x") / DEFINITION_FILE
    with pytest.raises(DifferentRun) as one:
        check_same_run(recorded, where, {**stored, "seed": 2}, overwrite=False)
    assert str(one.value) == ("runs/x holds a different run (seed 1 -> 2): pass --overwrite to replace it, or "
                              "choose another --out")
    changed = {"seed": 2, "train": {"dim": 100, "model": "lstm"}, "inputs": ["b"], "z": 1}
    with pytest.raises(DifferentRun) as many:
        check_same_run(recorded, "gs://bucket/runs/x/definition.json", changed, overwrite=False)
    assert str(many.value) == ('gs://bucket/runs/x holds a different run (inputs ["a"] -> ["b"], seed 1 -> 2, '
                               "train.dim 300 -> 100 and 2 more): pass --overwrite to replace it, or choose another "
                               "--out")
    assert len(re.findall(" -> ", str(many.value))) == SHOWN_KEYS
    assert check_same_run(recorded, where, changed, overwrite=True)  # the caller replaces the old run
    assert not check_same_run(recorded, where, dict(stored), overwrite=True)  # the same run is resumed


def test_an_unreadable_definition_is_refused_naming_its_file_and_overwrite_replaces_it():
    for bad in ("{", "[1]", ""):
        with pytest.raises(DifferentRun, match=r"^runs/x/definition\.json is not a run definition: pass --overwrite"):
            check_same_run(bad, "runs/x/definition.json", {"seed": 1}, overwrite=False)
        assert check_same_run(bad, "runs/x/definition.json", {"seed": 1}, overwrite=True)


def test_a_definition_is_written_one_way_and_read_back(tmp_path):
    definition = run_definition(TrainConfig(model="lstm"), inputs=[{"en": "ü.en"}])
    text = definition_text(definition)
    assert text == definition_text(dict(reversed(definition.items())))  # key order does not matter
    assert read_definition(text, tmp_path / DEFINITION_FILE) == definition
    for bad in ("{", "[1]", ""):
        with pytest.raises(DifferentRun, match=rf"{re.escape(str(tmp_path / DEFINITION_FILE))} is not a run "
                                               "definition: pass --overwrite"):
            read_definition(bad, tmp_path / DEFINITION_FILE)


# ------------------------------------------------------------------------------------- every tool, one rule


def _refusal(capsys: pytest.CaptureFixture[str], code: int, out: Path) -> str:
    """The one ``error:`` line of a refused rerun, its folder replaced by ``<out>``."""
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0].replace(str(out), "<out>")


def test_every_tool_refuses_another_run_in_the_same_words(tmp_path, capsys, monkeypatch):
    """The same change (the seed, 1 -> 2) in a folder that holds a run: ``paranmt run``, ``paranmt train`` and
    ``paranmt train-nmt`` each refuse it with the same line naming the same key."""
    sample = Path(__file__).resolve().parents[3] / "configs" / "sample"
    cs, en = ((sample / f"sample.{side}").read_text(encoding="utf-8").splitlines()[:30] for side in ("cs", "en"))
    for name, lines in (("a.cs", cs), ("a.en", en), ("a.mt", en[1:] + en[:1])):  # a given translation: no decoding
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = ("error: <out> holds a different run (seed 1 -> 2): pass --overwrite to replace it, or choose "
                "another --out")
    refusals = {}

    run_out = tmp_path / "run"
    run = ["--cs", str(tmp_path / "a.cs"), "--en", str(tmp_path / "a.en"), "--mt", str(tmp_path / "a.mt"),
           "--out", str(run_out), "--no-score", "--num-shards", "1", "--quiet"]
    assert run_main([*run, "--set", "seed=1"]) == 0
    assert (run_out / DEFINITION_FILE).is_file()
    capsys.readouterr()
    refusals["run"] = _refusal(capsys, run_main([*run, "--set", "seed=2"]), run_out)

    train_out = tmp_path / "train"
    pairs = tatoeba_pairs_parquet(tmp_path / "pairs", n=40)
    train = ["--input", str(pairs), "--out", str(train_out), "--model", "word",
             "--max-steps", "1", "--threads", "1", "--no-eval", "--quiet", "--set", "train.word_dim=8",
             "--set", "train.batch_size=10", "--set", "train.megabatch=1"]
    assert train_main([*train, "--seed", "1"]) == 0
    capsys.readouterr()
    refusals["train"] = _refusal(capsys, train_main([*train, "--seed", "2"]), train_out)

    nmt_out = tmp_path / "nmt"
    nmt = ["--cs", str(tmp_path / "a.cs"), "--en", str(tmp_path / "a.en"), "--out", str(nmt_out), "--preset", "tiny",
           "--threads", "1"]

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C once the run's definition is written, before any training

    with monkeypatch.context() as patch:
        patch.setattr(nmt_train, "_prepare_once", killed)
        assert train_nmt_main([*nmt, "--recipe", "seed=1"]) == 130
    assert (nmt_out / DEFINITION_FILE).is_file()
    capsys.readouterr()
    refusals["train-nmt"] = _refusal(capsys, train_nmt_main([*nmt, "--recipe", "seed=2"]), nmt_out)

    assert refusals == {"run": expected, "train": expected, "train-nmt": expected}
