"""pipeline.job, the job's Python API: :func:`run_job` on real pairs accounts for every row in the files it writes,
returns what ``summary.json`` holds and, run again, resumes to the same bytes; a worker's error is rebuilt only
when it is paranmt's own; and the README's "The same job in Python" block runs as written (the main job on the
bundled sample, from Python, in a folder that holds the sample where the README's paths expect it), its outputs
the CLI's: every row accounted for, the real model's translations, and ``train/`` the selection."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from paranmt.core.run_layout import OUTPUTS, STAGING
from pipeline.inputs.plan import InputSpec
from pipeline.job import raised_in_a_worker, run_job
from tests.support.sample_run import folder_bytes, sample_config
from tests.support.taste_data import taste_pairs
from translate.translator import BackendFailed

PAIRS = 300


def _bitext(folder: Path) -> InputSpec:
    """The first 300 bundled Tatoeba pairs with the default model's translations (no translation in the run), and
    two lines no pair can come from: an empty Czech line and an empty English one."""
    cs, en, mt = taste_pairs(PAIRS - 2)
    cs, en, mt = [*cs, "", "Dobrý den."], [*en, "Good day.", ""], [*mt, "Hello.", "Hello."]
    folder.mkdir()
    for side, lines in (("cs", cs), ("en", en), ("mt", mt)):
        (folder / f"tatoeba.{side}").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return InputSpec.pair(folder / "tatoeba.cs", folder / "tatoeba.en", folder / "tatoeba.mt")


def _outputs(out: Path) -> dict[str, bytes]:
    return {name: data for name, data in folder_bytes(out).items()
            if name.split("/")[0] in (*OUTPUTS, "summary.json", "_SUCCESS")}


def test_run_job_accounts_for_every_row_and_resumes_to_the_same_bytes(tmp_path):
    spec, out = _bitext(tmp_path / "in"), tmp_path / "run"
    summary = run_job(sample_config(), [spec], out)
    written = json.loads((out / "summary.json").read_text())
    assert {key: json.loads(json.dumps(summary[key])) for key in written} == written  # plus the console's timings
    rows = {name: pq.read_table(out / name).num_rows for name in OUTPUTS}
    assert written["read"] == PAIRS == rows["pairs"] + rows["rejected"] + rows["deadletter"]
    assert rows["rejected"] + rows["deadletter"] >= 2 and 0 < rows["train"] <= rows["pairs"]
    ids = [i for name in ("pairs", "rejected") for i in pq.read_table(out / name, columns=["id"])["id"].to_pylist()]
    assert len(ids) == len(set(ids))
    assert (out / "_SUCCESS").is_file() and not (out / STAGING).exists()
    before = _outputs(out)
    assert run_job(sample_config(), [spec], out)["read"] == PAIRS
    assert _outputs(out) == before


def test_only_paranmts_own_errors_are_rebuilt_from_a_workers_traceback():
    worker = "Traceback (most recent call last):\n  File \"x.py\", line 1\n"
    rebuilt = raised_in_a_worker(RuntimeError(worker + "translate.translator.BackendFailed: cuBLAS is missing"))
    assert isinstance(rebuilt, BackendFailed) and str(rebuilt) == "cuBLAS is missing"
    for text in (worker + "ValueError: not ours", worker + "json.decoder.JSONDecodeError: x",
                 worker + "translate.translator.Translation: not an error", "translate.translator.BackendFailed: x",
                 worker + "pipeline.job.AccountingError: needs a summary",
                 worker + "pipeline.no_such_module.SomeError: a module paranmt does not have"):
        assert raised_in_a_worker(RuntimeError(text)) is None, text


def test_the_readme_python_block_runs_as_written(readme_block_run):
    done, folder = readme_block_run.done, readme_block_run.folder
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["read"] == 400 and summary["identity"]["holds"] and summary["nmt_model_id"] == "small-cs-en"
    assert done.stdout.split(maxsplit=2)[:2] == ["400", str(summary["train"])]  # what the block prints
    train = pq.read_table(folder / "train").to_pylist()
    assert len(train) == summary["train"] >= 40 and all(row["keep"] and row["mt"].strip() for row in train)
    assert sum(summary["pairs_by_decision"].values()) == summary["pairs"] == 400
