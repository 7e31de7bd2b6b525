"""The dataset card a finished run writes (``README.md``): every number from ``summary.json`` (and from the report
once ``paranmt report`` ran on the folder), metadata ``huggingface_hub`` reads back, ``datasets.load_dataset`` on
the folder with no network, the same bytes for the same run, none while a run has not finished."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard

from paranmt.cli.report_command import main as report_main
from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.run_layout import CARD_FILE, REPORT_DIR, SUCCESS_FILE, SUMMARY_FILE
from pipeline.metrics import READ_COUNTER, written_counter
from pipeline.outputs.dataset_card import accounting_line, card_configs, card_data, size_category
from pipeline.outputs.run_folder import clear_staging
from pipeline.outputs.summary import build_summary, format_table
from pipeline.run import main as run_main
from tests.support.sample_run import run_sample_command
from tests.support.taste_data import taste_pairs

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "configs" / "sample"


@pytest.fixture(scope="module")
def mt_lexicon_run(tmp_path_factory) -> Path:
    """2,000 real pairs whose translations are given (--mt), with the lexicon: no model runs."""
    root = tmp_path_factory.mktemp("card-mt")
    for side, lines in zip(("cs", "en", "mt"), taste_pairs(2000), strict=True):
        (root / f"taste.{side}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = root / "taste"
    args = ["--cs", str(root / "taste.cs"), "--en", str(root / "taste.en"), "--mt", str(root / "taste.mt"),
            "--lexicon", "--set", "card.license=cc-by-2.0", "--out", str(out)]
    assert run_main(args) == 0
    return out


def _records(run: Path) -> tuple[dict, dict, DatasetCard]:
    summary = json.loads((run / SUMMARY_FILE).read_text())
    definition = json.loads((run / DEFINITION_FILE).read_text())
    return summary, definition, DatasetCard.load(run / CARD_FILE)


def _rows(text: str, header: str) -> list[list[str]]:
    """The cells of the Markdown table whose header row starts with ``| header |``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def _check_card(run: Path) -> tuple[dict, str]:
    summary, definition, card = _records(run)
    # huggingface_hub reads back the metadata the run's records give
    assert card.data.to_dict() == card_data(summary, definition, name=run.name).to_dict()
    default = card_configs(summary)[0]
    assert card.data.size_categories == [size_category(summary[default])]
    assert [c["config_name"] for c in card.data.configs] == card_configs(summary)
    assert card.data.license == definition["card"]["license"]
    text = card.text
    # every count equals summary.json's
    assert _rows(text, "stage") == [[s["stage"], str(s["in"]), str(s["dropped"]), str(s["out"]),
                                     ", ".join(f"{r} {n}" for r, n in s["reasons"].items()) or "-"]
                                    for s in summary["stages"]]
    assert dict(_rows(text, "rows")) == {name: str(summary[name]) for name in
                                         ("read", "pairs", "train", "rejected", "deadletter")}
    assert dict(_rows(text, "pairs/ by decision")) == {k: str(v) for k, v in summary["pairs_by_decision"].items()}
    assert {row[1].strip("`/"): row[2] for row in _rows(text, "config")} == {
        name: str(summary[name]) for name in ("train", "pairs", "rejected")}
    for source in summary["sources"]:
        assert f"| {source['source']} | {source['kind']} |" in text and text.count(f"| {source['rows']} |")
    return summary, text


def test_sample_run_card(sample_run):
    summary, text = _check_card(sample_run)
    check = summary["translator_check"]
    assert check["weak"] is False
    assert (f"over {check['scored']} scored pairs of {check['pairs']} (copies left out, copy rate "
            f"{check['copy_rate']}), {check['below_floor']} of the back-translations score under {check['floor']}"
            in " ".join(text.split()))
    assert "**small-cs-en**, beam 12" in text and "| bleu_newstest2016 | 10.7 |" in text  # the model's own card
    assert "CPU kernel: not recorded." in text or "translation_kernel" in summary
    assert "`other`: fill in the licence" in text
    examples = _rows(text, "id")
    train = pq.read_table(sample_run / "train").to_pylist()
    first = sorted(train, key=lambda row: row["id"])[:5]
    assert [row[:3] for row in examples] == [[r["id"], r["en"], r["mt"]] for r in first]
    assert "Translation cache: 0 rows reused, 400 translated" in text


def test_the_accounting_line_is_the_cards_and_the_consoles(sample_run):
    summary, _, card = _records(sample_run)
    line = accounting_line(summary["identity"])
    assert line == "read = pairs + rejected + deadletter: 400 = 400 + 0 + 0 -- holds"
    assert line in card.text.splitlines() and format_table(summary).splitlines()[-1] == line
    files = {"pairs": 10, "train": None, "rejected": 3, "deadletter": 0, "shards": {}, "rejected_by_stage": {},
             "deadletter_by_reason": {}, "pairs_by_decision": {}}
    metrics = {READ_COUNTER: 14, written_counter("pairs"): 10, written_counter("rejected"): 3,
               written_counter("deadletter"): 0}
    failed = build_summary(metrics, files, output_dir="out", expected_read=14, scored=False)["identity"]
    assert accounting_line(failed) == ("read = pairs + rejected + deadletter: 14 = 10 + 3 + 0 -- FAILS: "
                                       + "; ".join(failed["problems"]))
    assert failed["problems"][0].startswith("read 14 (metrics) != pairs 10 + rejected 3 + deadletter 0 = 13")


def test_mt_lexicon_run_card(mt_lexicon_run):
    summary, text = _check_card(mt_lexicon_run)
    assert summary["mode"] == "mt_column" and summary["read"] == 2000
    lexicon = summary["lexicon"]
    assert (f"{lexicon['used']} of {lexicon['read']} pairs counted, {lexicon['vocabulary']} words, "
            f"{lexicon['lexicon_rows']} word pairs") in text
    assert "this run translated nothing" in text and "license: cc-by-2.0" in (mt_lexicon_run / CARD_FILE).read_text()


def _load_dataset(run: Path, config: str | None, home: Path) -> list[dict]:
    """``datasets.load_dataset(run[, config])`` in a process with no network (the offline switches are read at
    import), its rows as JSON."""
    code = ("import json, sys, datasets\n"
            "args = [sys.argv[1]] + sys.argv[2:]\n"
            "rows = datasets.load_dataset(*args, split='train').to_list()\n"
            "print(json.dumps(rows))\n")
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", code, str(run), *([config] if config else [])], env=env,
                          capture_output=True, text=True, check=True, timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("config", [None, "pairs"])
def test_load_dataset_reads_the_shards_row_by_row(sample_run, tmp_path, config):
    folder = "train" if config is None else config
    shards = sorted((sample_run / folder).glob("*.parquet"))
    expected = [row for shard in shards for row in pq.read_table(shard).to_pylist()]
    rows = _load_dataset(sample_run, config, tmp_path)
    assert len(rows) == len(expected) > 0
    for got, want in zip(rows, expected, strict=True):
        assert got == json.loads(json.dumps(want))


def test_same_run_same_card_and_a_resumed_run_differs_in_its_cache_counts(sample_run, mt_lexicon_run, tmp_path):
    before = (mt_lexicon_run / CARD_FILE).read_bytes()
    root = mt_lexicon_run.parent  # the fixture's inputs, beside its run folder
    args = ["--cs", str(root / "taste.cs"), "--en", str(root / "taste.en"), "--mt", str(root / "taste.mt"),
            "--lexicon", "--set", "card.license=cc-by-2.0", "--out", str(mt_lexicon_run)]
    assert run_main(args) == 0
    assert (mt_lexicon_run / CARD_FILE).read_bytes() == before
    # The sample again: every translation now comes from the cache, the only lines that say it resumed.
    rerun = tmp_path / sample_run.name
    shutil.copytree(sample_run, rerun)
    first = (rerun / CARD_FILE).read_text().splitlines()
    run_sample_command(rerun)
    second = (rerun / CARD_FILE).read_text().splitlines()
    changed = [(a, b) for a, b in zip(first, second, strict=True) if a != b]
    assert changed == [("Translation cache: 0 rows reused, 400 translated in the run that finished.",
                        "Translation cache: 400 rows reused, 0 translated in the run that finished.")]


def test_a_starting_run_removes_the_card_with_the_success_marker(tmp_path):
    for name in (CARD_FILE, SUCCESS_FILE):
        (tmp_path / name).write_text("a finished run's")
    clear_staging(str(tmp_path))
    assert not (tmp_path / CARD_FILE).exists() and not (tmp_path / SUCCESS_FILE).exists()


def test_report_on_the_run_folder_adds_its_tables_and_plots(mt_lexicon_run, capsys):
    assert report_main(["--input", str(mt_lexicon_run), "--max-parse", "0"]) == 0
    assert f"wrote {mt_lexicon_run / CARD_FILE}" in capsys.readouterr().out
    report = json.loads((mt_lexicon_run / REPORT_DIR / "report.json").read_text())
    summary, text = _check_card(mt_lexicon_run)
    assert report["markdown"]["table1"] in text
    assert all(markdown in text for markdown in report["markdown"]["table3"].values())
    plots = re.findall(r"!\[\w+\]\((report/[^)]+)\)", text)
    assert sorted(plots) == sorted(f"{REPORT_DIR}/{f}" for f in report["files"]["plots"]) and plots
    assert all((mt_lexicon_run / plot).is_file() for plot in plots)
    assert report["corpora"][mt_lexicon_run.name]["table1"]["size"] == summary["pairs"]


def test_size_categories():
    assert [size_category(n) for n in (0, 999, 1000, 51_409_584)] == ["n<1K", "n<1K", "1K<n<10K", "10M<n<100M"]


def test_a_run_whose_every_row_is_rejected_has_a_card_without_examples(tmp_path):
    """A pair file of one garbage row (a control character): no pair reaches pairs/, the card says so."""
    (tmp_path / "in.tsv").write_text("Aby\x07 byl svět lepším místem.\tFor the world to be a better place.\t"
                                     "For the world to be a better place.\n", encoding="utf-8")
    out = tmp_path / "out"
    assert run_main(["--tsv", str(tmp_path / "in.tsv"), "--mt-column", "2", "--out", str(out),
                     "--quiet"]) == 0
    summary = json.loads((out / SUMMARY_FILE).read_text())
    assert (summary["read"], summary["pairs"], summary["rejected"]) == (1, 0, 1)
    card = (out / CARD_FILE).read_text(encoding="utf-8")
    assert "No pair reached `pairs/`: every row was rejected or dead-lettered" in card
    assert DatasetCard.load(out / CARD_FILE).data.configs[0]["config_name"] == "rejected"
