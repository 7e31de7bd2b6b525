"""A run folder's corpus in one sentence, and the run folder a training input came from: hand-built folders for
each way an input can point at one (or not), and the sample's real run folder."""

from __future__ import annotations

import json
from pathlib import Path

from huggingface_hub import DatasetCard

from paranmt.core.corpus_card import CITATION, RunCorpus, corpus_summary, run_corpus
from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.run_layout import CARD_FILE, SUMMARY_FILE

TRANSLATED = {"sources": [{"source": "europarl.cs"}, {"source": "news.tsv"}], "mode": "translate",
              "nmt_model_id": "small-cs-en", "read": 12345, "pairs": 10000, "train": 2000}
CARD = """---
license: cc-by-4.0
language:
- en
- cs
pretty_name: Czech news paraphrases
configs:
- config_name: train
  data_files:
  - split: train
    path: train/*.parquet
- config_name: pairs
  data_files:
  - split: train
    path: pairs/*.parquet
---
# Czech news paraphrases
"""


def test_a_translated_run_in_one_sentence():
    assert corpus_summary(TRANSLATED) == (
        "2,000 English paraphrase pairs selected (`train/`) of 10,000 (`pairs/`), made the way of ParaNMT-50M from "
        "12,345 rows of a Czech-English bitext (europarl.cs, news.tsv) by back-translating its Czech side into "
        "English with small-cs-en.")


def test_given_translations_without_a_selection():
    summary = {**TRANSLATED, "mode": "pairs", "nmt_model_id": "external", "train": None}
    assert corpus_summary(summary) == (
        "10,000 English paraphrase pairs (`pairs/`; no selection written), made the way of ParaNMT-50M from 12,345 "
        "rows of a Czech-English bitext (europarl.cs, news.tsv) by pairing its English side with the English "
        "translations it carries (the `mt` column, model id external).")


def _run_folder(root: Path, card: str = CARD) -> Path:
    folder = root / "run"
    for output in ("train", "pairs", "rejected"):
        (folder / output).mkdir(parents=True)
        (folder / output / "part-00000-of-00001.parquet").write_bytes(b"")
    (folder / CARD_FILE).write_text(card, encoding="utf-8")
    (folder / SUMMARY_FILE).write_text(json.dumps(TRANSLATED), encoding="utf-8")
    (folder / DEFINITION_FILE).write_text("{}", encoding="utf-8")
    return folder


def test_an_output_folder_a_shard_or_the_run_folder_leads_to_the_run(tmp_path):
    folder = _run_folder(tmp_path)
    expected = RunCorpus(folder=folder.resolve(), config="train", name="Czech news paraphrases",
                         license="cc-by-4.0", languages=["en", "cs"], summary=corpus_summary(TRANSLATED))
    assert run_corpus(folder / "train") == expected
    assert run_corpus(str(folder / "train" / "part-00000-of-00001.parquet")) == expected
    assert run_corpus(folder) == expected  # the run folder given whole: the trainer reads its train/
    pairs = run_corpus(folder / "pairs")
    assert pairs is not None and pairs.config == "pairs"


def test_inputs_that_are_no_run_output_give_none(tmp_path):
    folder = _run_folder(tmp_path)
    assert run_corpus(folder / "rejected") is None  # a folder the card names as no config
    assert run_corpus("gs://bucket/run/train") is None
    (tmp_path / "loose").mkdir()
    assert run_corpus(tmp_path / "loose") is None  # no card, no summary beside it
    (folder / SUMMARY_FILE).unlink()
    assert run_corpus(folder / "train") is None  # a card without the summary: not a finished run


def test_a_card_without_a_name_licence_or_languages(tmp_path):
    bare = CARD.replace("license: cc-by-4.0\n", "").replace("pretty_name: Czech news paraphrases\n", "")
    bare = bare.replace("language:\n- en\n- cs\n", "language: en\n")
    found = run_corpus(_run_folder(tmp_path, bare) / "train")
    assert found is not None and (found.name, found.license, found.languages) == ("run", None, ["en"])


def test_the_samples_run_folder_names_its_own_corpus(sample_run):
    found = run_corpus(sample_run / "train")
    card = DatasetCard.load(sample_run / CARD_FILE)
    summary = json.loads((sample_run / SUMMARY_FILE).read_text(encoding="utf-8"))
    assert found is not None and found.folder == sample_run.resolve() and found.config == "train"
    assert found.name == card.data.pretty_name and found.summary == corpus_summary(summary)
    assert found.summary.startswith(f"{summary['train']:,} English paraphrase pairs selected (`train/`)")


def test_the_citation_is_one_bibtex_entry_of_the_paper():
    assert CITATION.startswith("@inproceedings{wieting-gimpel-2018-paranmt,") and CITATION.endswith("}")
    assert CITATION.count("{") == CITATION.count("}") and 'doi = "10.18653/v1/P18-1042"' in CITATION
