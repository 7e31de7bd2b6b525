"""pipeline.outputs.run_folder's claim: the run's definition in ``<out>/definition.json``, resume or refuse, what
``overwrite`` deletes and keeps; and a rerun that changes only how the run executes resumes and writes the same
bytes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from configs import load_config
from paranmt.core.run_definition import DEFINITION_FILE, DifferentRun, read_definition
from pipeline.inputs.plan import InputSpec, plan_reads
from pipeline.job import run_job
from pipeline.outputs.run_folder import CACHE_DIR, OUTPUTS, SUCCESS_FILE, SUMMARY_FILE, claim_output, definition

SAMPLE = Path(__file__).resolve().parents[3] / "configs" / "sample"


@pytest.fixture(scope="module")
def given_translations(tmp_path_factory) -> list[InputSpec]:
    """The first 40 bundled sample pairs with a given translation (the next line's English): no decoding."""
    folder = tmp_path_factory.mktemp("given")
    cs, en = ((SAMPLE / f"sample.{side}").read_text(encoding="utf-8").splitlines()[:40] for side in ("cs", "en"))
    for name, lines in (("a.cs", cs), ("a.en", en), ("a.mt", en[1:] + en[:1])):
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [InputSpec.pair(folder / "a.cs", folder / "a.en", folder / "a.mt")]


def test_the_definition_is_written_and_a_different_run_refused_or_replaced(tmp_path):
    out = str(tmp_path / "out")
    for side in ("cs", "en"):
        (tmp_path / f"a.{side}").write_bytes((SAMPLE / f"sample.{side}").read_bytes())
    specs = [InputSpec.pair(tmp_path / "a.cs", tmp_path / "a.en")]
    config = load_config("sample")
    plan = plan_reads(specs, config.pipeline)
    claim_output(out, config, specs, plan, overwrite=False)
    written = read_definition((tmp_path / "out" / DEFINITION_FILE).read_text(encoding="utf-8"), "x")
    assert written == json.loads(json.dumps(definition(config, specs, plan)))
    assert written["inputs"] == [{"kind": "pair", "files": [  # named by file name, size and content, not by path
        {"name": f"a.{side}", "bytes": (SAMPLE / f"sample.{side}").stat().st_size,
         "sha256": hashlib.sha256((SAMPLE / f"sample.{side}").read_bytes()).hexdigest()} for side in ("cs", "en")]}]
    assert "threads" not in written["translate"]
    for name in (*OUTPUTS, CACHE_DIR):
        (tmp_path / "out" / name).mkdir()
    (tmp_path / "out" / SUMMARY_FILE).write_text("{}")
    (tmp_path / "out" / SUCCESS_FILE).write_text("")

    claim_output(out, load_config("sample", ["translate.threads=3"]), specs, plan, overwrite=False)  # the same run
    assert all((tmp_path / "out" / name).exists() for name in (*OUTPUTS, SUMMARY_FILE, SUCCESS_FILE))
    other = load_config("sample", ["translate.beam_size=4"])
    with pytest.raises(DifferentRun, match=r"out holds a different run \(translate\.beam_size 12 -> 4\): pass "
                                           r"--overwrite to replace it, or choose another --out$"):
        claim_output(out, other, specs, plan, overwrite=False)
    assert (tmp_path / "out" / "pairs").exists()
    claim_output(out, other, specs, plan, overwrite=True)  # the outputs go, the content-addressed cache stays
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [CACHE_DIR, DEFINITION_FILE]
    assert read_definition((tmp_path / "out" / DEFINITION_FILE).read_text(encoding="utf-8"), "x") == \
        json.loads(json.dumps(definition(other, specs, plan)))


def test_a_rerun_that_changes_only_how_it_runs_resumes_to_the_same_bytes(given_translations, tmp_path):
    """Threads, the runner and the translation cache's folder are no part of the definition: a rerun with other
    values resumes the folder, and a run elsewhere writes byte-identical shards (their metadata included)."""
    base = ["pipeline.score=false", "pipeline.num_shards=2"]
    first, second = tmp_path / "first", tmp_path / "second"
    run_job(load_config("sample", [*base, "translate.threads=1"]), given_translations, first)
    faster = load_config("sample", [*base, "translate.threads=2", "translate.text_processes=2",
                                    f"pipeline.cache_dir={tmp_path / 'cache'}"])
    run_job(faster, given_translations, first)  # resumed, not refused
    run_job(faster, given_translations, second, beam_args=["--runner", "BundleBasedDirectRunner"])
    shards = sorted(p.relative_to(first) for p in first.rglob("*.parquet"))
    assert shards and shards == sorted(p.relative_to(second) for p in second.rglob("*.parquet"))
    assert [(first / s).read_bytes() == (second / s).read_bytes() for s in shards] == [True] * len(shards)
    assert (first / DEFINITION_FILE).read_bytes() == (second / DEFINITION_FILE).read_bytes()
