"""A user's own rules and score (tests/support/plugin_examples.py, outside the package) in a real pipeline run:
named by import path in the config, on the in-process and the multi-process local runner, with their reasons
counted and accounted for and their parameters echoed into the output metadata."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from configs import load_config
from filters.plugins import PluginError
from paranmt.core import pair_schema as S
from pipeline.inputs.plan import InputSpec
from pipeline.job import run_job
from tests.support.repo import REPO_ROOT
from tests.support.sample_run import SUITE_KERNEL

SAMPLE = REPO_ROOT / "configs" / "sample"
EXAMPLES = "tests.support.plugin_examples"
ROWS = 80
MAX_CHARS = 60


def _config(cache: Path, *extra: str):
    # translate.cpu_kernel: one per process (CTranslate2 reads it once); the suite's in-process runs use the default
    return load_config("sample", [
        SUITE_KERNEL, f"pipeline.limit={ROWS}", "pipeline.num_shards=2",
        f"pipeline.cache_dir={cache}", "translate.threads=1",
        f"prefilter.rules=[garbage, empty_side, untranslated, source_too_long, {{{EXAMPLES}:LongEnglish: "
        f"{{max_chars: {MAX_CHARS}}}}}]",
        f"select.scores=[{{{EXAMPLES}:LengthGap: {{}}}}]",
        "select.score_ranges={length_gap: {max: 0.5}}",
        f"select.rules=[{EXAMPLES}:SameEnding]",
        *extra])


def _table(out: Path, name: str) -> pa.Table:
    return pa.concat_tables([pq.read_table(f) for f in sorted((out / name).glob("*.parquet"))])


def test_external_rules_and_score_in_a_real_run_on_both_local_runners(tmp_path):
    english = (SAMPLE / "sample.en").read_text(encoding="utf-8").splitlines()[:ROWS]
    specs = [InputSpec.pair(str(SAMPLE / "sample.cs"), str(SAMPLE / "sample.en"))]
    cache = tmp_path / "cache"
    single = tmp_path / "single"
    summary = run_job(_config(cache), specs, single)
    multi = tmp_path / "multi"
    run_job(_config(cache, "pipeline.beam_options={direct_running_mode: multi_processing, direct_num_workers: 2}"),
        specs, multi)

    # Before translation: exactly the long English sides, with the rule's own reason and detail, never decoded.
    rejected = _table(single, "rejected").to_pylist()
    long_rows = {f"sample:L{i + 1:012d}" for i, text in enumerate(english) if len(text) > MAX_CHARS}
    mine = [r for r in rejected if r["reason"] == "too_many_characters"]
    assert long_rows and {r["id"] for r in mine} == long_rows - {r["id"] for r in rejected if r["stage"] == "prefilter"
                                                                  and r["reason"] != "too_many_characters"}
    assert all(r["stage"] == "prefilter" and r["detail"].startswith("en has ") for r in mine)
    pairs = _table(single, "pairs")
    assert not long_rows & set(pairs["id"].to_pylist())
    # The score: a column of pairs/ and train/, equal to its definition recomputed here.
    en_len = np.array([len(t) for t in pairs["en_tokens"].to_pylist()], float)
    mt_len = np.array([len(t) for t in pairs["mt_tokens"].to_pylist()], float)
    gap = np.abs(en_len - mt_len) / np.maximum(np.maximum(en_len, mt_len), 1)
    np.testing.assert_allclose(pairs["length_gap"].to_numpy(), gap, rtol=1e-6)
    assert _table(single, "train").schema.field("length_gap").type == pa.float32()
    # After scoring: a range on the plug-in score and the external rule decide, in that order.
    rows = pairs.to_pylist()
    for row in rows:
        ends_differ = row["en"].rstrip()[-1:] != row["mt"].rstrip()[-1:]
        if row["reason"] == "kept":
            assert row["length_gap"] <= 0.5 and not ends_differ
        if row["reason"] == "ending_differs":
            assert row["length_gap"] <= 0.5 and ends_differ
    reasons = {r["reason"] for r in rows}
    assert {"kept", "ending_differs"} <= reasons
    # Counted and accounted for, custom reasons included.
    assert summary["identity"]["holds"], summary["identity"]
    assert summary["rejected_by_reason"]["too_many_characters"] == len(mine)
    assert summary["metrics"]["rejected_too_many_characters"] == len(mine)
    assert summary["pairs_by_decision"]["ending_differs"] == sum(r["reason"] == "ending_differs" for r in rows)
    assert summary["read"] == summary["pairs"] + summary["rejected"] + summary["deadletter"] == ROWS
    # Echoed into the metadata with every parameter.
    meta = S.read_metadata(pq.read_schema(sorted((single / "train").glob("*.parquet"))[0]))
    assert {f"{EXAMPLES}:LengthGap": {"column": "length_gap"}} in meta["scores"]
    assert {f"{EXAMPLES}:SameEnding": {}} in meta["rules"]
    assert {"score_range": {"criterion": "length_gap", "min": None, "max": 0.5}} in meta["rules"]
    assert meta["config"]["prefilter"]["rules"][-1] == {f"{EXAMPLES}:LongEnglish": {"max_chars": MAX_CHARS}}
    # The multi-process runner (workers import the plug-ins themselves) writes the same rows.
    for name in ("pairs", "train", "rejected"):
        assert _table(multi, name).sort_by("id").equals(_table(single, name).sort_by("id")), name
    assert json.loads((multi / "summary.json").read_text())["identity"]["holds"]


@pytest.mark.parametrize(("override", "message"), [
    (f"prefilter.rules=[{{{EXAMPLES}:LongEnglish: {{max_chars: 0}}}}]",
     r"prefilter\.rules\[0\] \(tests\.support\.plugin_examples:LongEnglish\): max_chars: Input should be greater"
     r" than or equal to 1 \(got 0\)"),
    (f"prefilter.rules=[{{{EXAMPLES}:LongEnglish: {{max_chars: lots}}}}]",  # the value given is echoed
     r"\(tests\.support\.plugin_examples:LongEnglish\): max_chars: Input should be a valid integer, unable to parse "
     r"string as an integer \(got 'lots'\)"),
    (f"prefilter.rules=[{EXAMPLES}:LongEnglish]", r"LongEnglish\): max_chars: Field required$"),
    (f"prefilter.rules=[{EXAMPLES}:Missing]", r"prefilter\.rules\[0\]: tests\.support\.plugin_examples has no class"),
    (f"prefilter.rules=[{EXAMPLES}:SameEnding]", r"is a select rule; list it under select\.rules"),
    ("select.rank_by=st_cosin", r"select\.rank_by: 'st_cosin' is not a score column"),
    ("select.rules=[{score_range: {criterion: length_gap, min: 0.1}}]", r"select\.rules: length_gap_range reads"),
])
def test_a_bad_plugin_is_a_clear_error_before_any_work(tmp_path, override, message):
    specs = [InputSpec.pair(str(SAMPLE / "sample.cs"), str(SAMPLE / "sample.en"))]
    config = load_config("sample", [SUITE_KERNEL, f"pipeline.cache_dir={tmp_path / 'cache'}",
                                     override])
    with pytest.raises(PluginError, match=message):
        run_job(config, specs, tmp_path / "out")
    assert not (tmp_path / "cache").exists() and not (tmp_path / "out" / "pairs").exists()


def test_the_docs_example_plugs_in_as_written(monkeypatch):
    """docs/filters.md "Add your own filter or score": its Python defines working classes and its YAML names them."""
    import re
    import sys
    import types

    import yaml

    from filters.plugins import Stage, build_rules, build_scores
    from filters.rules import rules_from_config

    page = (REPO_ROOT / "docs" / "filters.md").read_text(encoding="utf-8")
    section = page.split("## Add your own filter or score", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    config = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
    module = types.ModuleType("mypackage.filters")
    exec(compile(code, "docs/filters.md", "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, "mypackage", types.ModuleType("mypackage"))
    monkeypatch.setitem(sys.modules, "mypackage.filters", module)

    rules = build_rules(config["prefilter"]["rules"], Stage.PREFILTER, "prefilter.rules")
    table = pa.table({"en": ["short", "x" * 250], "en_tokens": [["short"], ["x"]], "mt_tokens": [["a", "b"], ["x"]]})
    assert rules[-1].check(table).tolist() == [True, False] and rules[-1].reason == "too_many_characters"
    scores = build_scores(config["select"]["scores"])
    gap = scores[0].score(table)["length_gap"].to_pylist()
    assert gap == pytest.approx([0.5, 0.0]) and scores[1].fields[0].name == "st_cosine"
    from configs.schema import SelectConfig

    selection = SelectConfig(**{k: v for k, v in config["select"].items()})
    assert [r.name for r in rules_from_config(selection)][-2:] == ["translation_score_range", "too_many_tokens"]


def test_a_user_module_named_like_a_package_is_one_line(tmp_path):
    """A plug-in module named ``filters.py`` first on the Python path hides paranmt's ``filters`` package: one line
    names the file and the fix, not a 25-line traceback."""
    import os
    import subprocess
    import sys

    (tmp_path / "filters.py").write_text("from filters.plugins import Rule\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "paranmt", "run", "--config", "sample", "--cs", "a.cs",
                           "--en", "a.en", "--out", "out"], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO_ROOT}"})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("WARNING")]
    assert lines == [f"error: {tmp_path / 'filters.py'} hides paranmt's own filters package (it comes first on the "
                     "Python path): rename your module, e.g. to my_filters.py, and name its plug-ins by the new name "
                     "(my_filters:YourRule)"]
    assert not (tmp_path / "out").exists()


def test_a_plugin_named_in_a_module_paranmt_owns_says_why_it_is_missing():
    from filters.plugins import Stage, build_rules

    with pytest.raises(PluginError, match=r"filters is paranmt's own module and has no class MaxChars; .* "
                                          r"named filters, rename it .* my_filters:MaxChars"):
        build_rules(["filters:MaxChars"], Stage.PREFILTER, "prefilter.rules")


def test_the_docs_config_on_top_of_sample_loads(tmp_path):
    """docs/filters.md: the ``base: sample`` example is the sample's settings plus its own."""
    import re

    from configs import load_config

    section = (REPO_ROOT / "docs" / "filters.md").read_text(encoding="utf-8").split("A config on top of `sample`", 1)[1]
    text = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    config, sample = load_config(tmp_path / "mine.yaml"), load_config("sample")
    assert config.translate == sample.translate and config.lexicon == sample.lexicon
    assert config.prefilter.rules[-1] == {"mypackage.filters:MaxCharacters": {"max_chars": 200}}
    assert config.select.score_ranges["translation_score"].min == -1.0
