"""The configuration system: defaults, bundled and user YAML files, overrides, precedence and error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from configs import CONFIG_DIR, ConfigError, load_config, parse_override
from configs.schema import ParaNMTConfig


@pytest.mark.parametrize("name", ["sample", "sample.yaml", str(CONFIG_DIR / "sample.yaml")])
def test_sample_config_by_name_and_by_path(name):
    config = load_config(name)
    assert config.translate.model is None
    assert config.translate.device == "cpu" and config.translate.beam_size == 12


@pytest.mark.parametrize("name", ["czeng", str(CONFIG_DIR / "czeng.yaml")])
def test_czeng_config_paths_are_relative_to_the_yaml_file(name):
    t = load_config(name).translate
    assert t.device == "cuda" and t.compute_type == "float16"
    assert t.max_batch_tokens == 16384 and t.max_batch_sentences == 1024
    # `model: ../models/opus-mt-cs-en` in configs/czeng.yaml
    assert t.model == CONFIG_DIR.parent / "models" / "opus-mt-cs-en"
    assert t.model.is_absolute()


def test_user_yaml_paths_resolve_relative_to_the_file_not_the_working_directory(tmp_path, monkeypatch):
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    (conf_dir / "run.yaml").write_text("translate:\n  model: models/m1\n  beam_size: 5\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("conf/run.yaml"))
    assert config.translate.model == conf_dir.resolve() / "models" / "m1"
    assert config.translate.beam_size == 5
    absolute = tmp_path / "elsewhere"
    (conf_dir / "abs.yaml").write_text(f"translate:\n  model: {absolute}\n", encoding="utf-8")
    assert load_config(conf_dir / "abs.yaml").translate.model == absolute


def test_override_paths_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    # `--config czeng --set translate.model=models/x` run from tmp_path means tmp_path/models/x, not configs/models/x
    monkeypatch.chdir(tmp_path)
    assert load_config("czeng", ["translate.model=models/x"]).translate.model == tmp_path.resolve() / "models" / "x"
    assert load_config(None, ["translate.model=models/x"]).translate.model == Path("models/x")
    assert load_config("czeng", ["translate.model=null"]).translate.model is None


def test_empty_yaml_file_means_defaults(tmp_path):
    (tmp_path / "empty.yaml").write_text("# nothing here\n", encoding="utf-8")
    assert load_config(tmp_path / "empty.yaml") == ParaNMTConfig() == load_config()  # as no file at all


def test_a_directory_named_like_a_bundled_config_does_not_shadow_it(tmp_path, monkeypatch):
    # e.g. running from a folder that has a `sample/` output directory (README: runs/sample/)
    (tmp_path / "sample").mkdir()
    monkeypatch.chdir(tmp_path)
    assert load_config("sample").translate.device == "cpu"
    # configs/sample/ is the bundled sample data folder, beside configs/sample.yaml
    assert load_config(CONFIG_DIR / "sample").translate.device == "cpu"


def test_parse_override_parses_values_as_yaml():
    assert parse_override("translate.beam_size=4") == (["translate", "beam_size"], 4)
    assert parse_override(" translate.device = cuda ") == (["translate", "device"], "cuda")
    assert parse_override("translate.model=null") == (["translate", "model"], None)
    assert parse_override("translate.model=") == (["translate", "model"], None)
    assert parse_override("seed=7") == (["seed"], 7)
    assert parse_override("a.b=1.5") == (["a", "b"], 1.5)
    assert parse_override("a.b=true") == (["a", "b"], True)
    assert parse_override("a.b=[1, 2]") == (["a", "b"], [1, 2])
    assert parse_override("a.b=x=y") == (["a", "b"], "x=y"), "only the first = separates key and value"


@pytest.mark.parametrize("text", ["translate.beam_size", "=4", "  =4", ""])
def test_malformed_override_is_a_config_error(text):
    with pytest.raises(ConfigError, match=r"section\.key=value") as error:
        parse_override(text)
    assert repr(text) in str(error.value)
    with pytest.raises(ConfigError, match=r"section\.key=value"):
        load_config(None, [text])


def test_overrides_are_typed_and_validated():
    config = load_config("sample", ["translate.beam_size=4", "translate.max_source_tokens=150", "seed=7",
                                     "translate.device=cuda"])
    assert config.translate.beam_size == 4 and isinstance(config.translate.beam_size, int)
    assert config.translate.max_source_tokens == 150 and config.seed == 7
    assert config.translate.device == "cuda"
    assert config.translate.max_decoding_length == 256, "values not overridden come from the file"


def test_precedence_values_over_overrides_over_file_over_defaults():
    # file (czeng) sets beam 12, device cuda, max_batch_tokens 16384; defaults give threads 0
    config = load_config(
        "czeng",
        ["translate.beam_size=6", "translate.max_batch_tokens=2048", "translate.nbest=2"],
        {"translate.beam_size": 3, "translate.nbest": None, "translate.threads": None},
    )
    t = config.translate
    assert t.beam_size == 3, "values beat overrides"
    assert t.nbest == 2, "a None value (flag not given) leaves the override"
    assert t.max_batch_tokens == 2048, "overrides beat the file"
    assert t.device == "cuda", "the file beats the defaults"
    assert t.threads == 0 and t.max_decoding_length == 256, "defaults fill the rest"
    # the last override of the same key wins
    assert load_config(None, ["translate.beam_size=6", "translate.beam_size=8"]).translate.beam_size == 8


def test_values_alone_over_defaults():
    t = load_config(None, (), {"translate.beam_size": 5, "translate.model": "/abs/model"}).translate
    assert t.beam_size == 5 and t.model == Path("/abs/model")


# ---- errors: a ConfigError naming the field and the value ----------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "field", "shown"),
    [
        (["translate.beam_size=0"], "translate.beam_size", "(got 0)"),
        (["translate.beam_size=257"], "translate.beam_size", "(got 257)"),
        (["translate.beem=1"], "translate.beem", "unknown key (translate's keys: model, backend,"),
        (["translate.beam_size=abc"], "translate.beam_size", "(got 'abc')"),
        (["translate.beam_size=[1]"], "translate.beam_size", "(got [1])"),
        (["translate.device=tpu"], "translate.device", "(got 'tpu')"),
        (["translate.backend=marian"], "translate.backend", "(got 'marian')"),
        (["translate.threads=-1"], "translate.threads", "(got -1)"),
        (["sede=1"], "sede", "did you mean seed?"),
        (["translate=3"], "translate", "(got 3)"),
    ],
)
def test_invalid_values_name_the_field_and_the_value(overrides, field, shown):
    with pytest.raises(ConfigError) as error:
        load_config("sample", overrides)
    message = str(error.value)
    assert f"{field}: " in message and shown in message
    assert f"(--set {overrides[0]})" in message, "the message names where the value came from"
    assert "sample.yaml" not in message and "(defaults)" not in message


def test_a_set_value_is_named_by_its_set_not_by_the_defaults(tmp_path):
    """A bad value given with --set is reported as coming from --set, not from "(defaults)" or the file."""
    with pytest.raises(ConfigError) as error:
        load_config(None, ["translate.beam_size=abc"])
    assert str(error.value) == ("invalid configuration (--set translate.beam_size=abc): translate.beam_size: Input "
                                "should be a valid integer, unable to parse string as an integer (got 'abc')")
    path = tmp_path / "c.yaml"
    path.write_text("translate:\n  beem: 4\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path, ["translate.device=tpu"])
    message = str(error.value)
    assert f"invalid configuration ({path}): translate.beem" in message
    assert "invalid configuration (--set translate.device=tpu): translate.device" in message
    with pytest.raises(ConfigError, match=r"\(--set translate.nbest=13\): translate: .*nbest \(13\)"):
        load_config(None, ["translate.nbest=13"])  # a section-level check names the --set inside it


def test_an_unknown_key_is_one_line_with_its_sections_keys_and_the_closest(tmp_path):
    """``--set nonsense.key=1`` is answered with the valid keys, not in the validation library's words ("Extra
    inputs are not permitted")."""
    with pytest.raises(ConfigError) as error:
        load_config(None, ["nonsense.key=1"])
    assert str(error.value) == ("invalid configuration (--set nonsense.key=1): nonsense: unknown key (the "
                                "top-level keys: seed, pipeline, prefilter, translate, score, select, train, lexicon, "
                                "card, base)")
    with pytest.raises(ConfigError) as error:
        load_config(None, ["select.score_ranges.paraphrase_score.mn=0.5"])
    assert str(error.value).endswith("unknown key (select.score_ranges.paraphrase_score's keys: min, max); did you "
                                     "mean select.score_ranges.paraphrase_score.min?")
    path = tmp_path / "c.yaml"
    path.write_text("prefilter:\n  dedupe: false\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == (f"invalid configuration ({path}): prefilter.dedupe: unknown key (prefilter's keys: "
                                "rules, max_source_tokens, dedup); did you mean prefilter.dedup?")
    assert "\n" not in str(error.value) and "Extra inputs" not in str(error.value)


def test_beam_size_zero_message_matches_the_readme():
    with pytest.raises(ConfigError) as error:
        load_config(None, ["translate.beam_size=0"])
    assert "translate.beam_size: Input should be greater than or equal to 1 (got 0)" in str(error.value)


def test_nbest_larger_than_beam_names_both():
    with pytest.raises(ConfigError) as error:
        load_config(None, ["translate.nbest=13"])
    assert "nbest (13) cannot exceed beam_size (12)" in str(error.value)
    with pytest.raises(ConfigError, match=r"nbest \(5\) cannot exceed beam_size \(4\)"):
        load_config(None, [], {"translate.beam_size": 4, "translate.nbest": 5})


def test_unknown_key_in_a_yaml_file(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("translate:\n  beem: 4\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert "translate.beem: unknown key (translate's keys: " in str(error.value)
    assert str(path) in str(error.value)


def test_wrong_type_in_a_yaml_file(tmp_path):
    path = tmp_path / "types.yaml"
    path.write_text("translate:\n  max_batch_tokens: lots\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"translate\.max_batch_tokens: .*\(got 'lots'\)"):
        load_config(path)


@pytest.mark.parametrize("key", ["model", "vmap"])
def test_a_remote_model_or_vmap_path_is_refused_with_the_fix(key):
    """The translator reads them on the worker's disk; Path would have turned gs://b/x into gs:/b/x."""
    with pytest.raises(ConfigError, match=rf"translate\.{key}: .*gs://b/x is a remote path.*worker image"):
        load_config(None, [f"translate.{key}=gs://b/x"])


@pytest.mark.parametrize(("text", "kind"), [("- a\n- b\n", "list"), ("just a string\n", "str"), ("42\n", "int")])
def test_yaml_top_level_must_be_a_mapping(tmp_path, text, kind):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=f"top level must be a mapping of sections, got {kind}") as error:
        load_config(path)
    assert str(path) in str(error.value)


def test_invalid_yaml(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("translate:\n  beam_size: [12\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML") as error:
        load_config(path)
    assert str(path) in str(error.value)
    assert "\n" not in str(error.value) and "line 2, column 14" in str(error.value)  # one line, with the place
    with pytest.raises(ConfigError, match=r"--set select.rules=\[\{: the value is not valid YAML"):
        load_config(None, ["select.rules=[{"])  # a traceback before


def test_missing_config_file_lists_the_bundled_configs(tmp_path):
    with pytest.raises(ConfigError) as error:
        load_config(tmp_path / "nope.yaml")
    message = str(error.value)
    assert "nope.yaml" in message and "not found" in message
    assert "bundled configs: cse, czeng, iclr16-zoo, sample" in message
    with pytest.raises(ConfigError, match="'czang' not found"):
        load_config("czang")


def test_override_into_a_value_that_is_not_a_section():
    with pytest.raises(ConfigError, match=r"cannot set seed\.x: seed is not a section"):
        load_config("sample", ["seed.x=1"])


# ---- base: a config on top of another -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sample", "czeng", "iclr16-zoo", "cse"])
def test_a_file_with_only_a_base_is_that_config(tmp_path, name):
    """Paths of the base stay relative to the base's own folder (czeng's ../models/opus-mt-cs-en)."""
    path = tmp_path / "mine.yaml"
    path.write_text(f"base: {name}\n", encoding="utf-8")
    assert load_config(path) == load_config(name)


def test_a_config_on_top_of_sample(tmp_path):
    (tmp_path / "evals.txt").write_text("A man plays a guitar.\n", encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text("base: sample\nselect:\n  score_ranges: {paraphrase_score: {min: 0.3}}\n"
                    "  exclude_sentences: [evals.txt]\ntranslate:\n  beam_size: 4\n", encoding="utf-8")
    config, sample = load_config(path, ["translate.nbest=2"]), load_config("sample")
    assert config.translate.beam_size == 4 and config.translate.nbest == 2, "the file, then --set, over the base"
    assert config.translate.max_decoding_length == sample.translate.max_decoding_length, "the rest from the base"
    assert config.lexicon == sample.lexicon and config.seed == sample.seed
    assert config.select.score_ranges["paraphrase_score"].min == 0.3
    assert config.select.exclude_sentences == [str(tmp_path / "evals.txt")], "the file's paths: relative to it"
    base = tmp_path / "base.yaml"
    base.write_text("base: sample\ntranslate:\n  beam_size: 6\n", encoding="utf-8")
    path.write_text("base: base.yaml\nseed: 7\n", encoding="utf-8")  # a base beside the file, with its own base
    chained = load_config(path)
    assert chained.seed == 7 and chained.translate.beam_size == 6 and chained.lexicon == sample.lexicon


def test_base_errors_name_the_file_and_the_base(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("base: nope\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'nope' not found"):
        load_config(path)
    path.write_text("base: mine.yaml\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot be its own base"):
        load_config(path)
    path.write_text("base: [sample]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"mine.yaml: base: must name a config"):
        load_config(path)
    (tmp_path / "bad.yaml").write_text("translate:\n  beam_size: 0\n", encoding="utf-8")
    path.write_text("base: bad.yaml\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"mine.yaml: base: bad.yaml: .*translate.beam_size"):
        load_config(path)
