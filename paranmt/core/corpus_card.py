"""A finished run folder's corpus in one sentence, and the run folder a training input came from: what the dataset
card opens with (``pipeline/outputs/dataset_card.py``) and what an exported encoder's model card quotes
(``train_embeddings/export/model_card.py``). Beam-free and torch-free, so the trainer's side reads a run folder
without the pipeline: the sentence from ``summary.json``, the name and licence from the dataset card's YAML
(``huggingface_hub``'s ``DatasetCard``), the config that holds the input from the card's ``configs``.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huggingface_hub import DatasetCard

from paranmt.core.pair_schema import MT
from paranmt.core.run_definition import DEFINITION_FILE
from paranmt.core.run_layout import CARD_FILE, SUMMARY_FILE, TRAIN

__all__ = ["CITATION", "RunCorpus", "corpus_summary", "run_corpus"]

# How to cite the method: the dataset card and an exported encoder's card give it.
CITATION = """@inproceedings{wieting-gimpel-2018-paranmt,
    title = "{P}ara{NMT}-50{M}: Pushing the Limits of Paraphrastic Sentence Embeddings
             with Millions of Machine Translations",
    author = "Wieting, John and Gimpel, Kevin",
    booktitle = "Proceedings of the 56th Annual Meeting of the Association for Computational Linguistics
                 (Volume 1: Long Papers)",
    year = "2018",
    address = "Melbourne, Australia",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/P18-1042",
    doi = "10.18653/v1/P18-1042",
    pages = "451--462"
}"""


def corpus_summary(summary: Mapping[str, Any]) -> str:
    """One sentence from a run's ``summary.json``: how many pairs were selected of how many, from which bitext
    rows, and how they were made (back-translated by which model, or given)."""
    sources = ", ".join(source["source"] for source in summary["sources"])
    if summary.get("mode") == "translate":
        made = f"by back-translating its Czech side into English with {summary.get('nmt_model_id')}"
    else:
        made = (f"by pairing its English side with the English translations it carries (the `{MT}` column, model "
                f"id {summary.get('nmt_model_id')})")
    train = summary.get("train")
    selected = (f"{train:,} English paraphrase pairs selected (`train/`) of {summary['pairs']:,} (`pairs/`)"
                if train is not None else f"{summary['pairs']:,} English paraphrase pairs (`pairs/`; no selection "
                "written)")
    return (f"{selected}, made the way of ParaNMT-50M from {summary['read']:,} rows of a Czech-English bitext "
            f"({sources}) {made}.")


@dataclass(frozen=True)
class RunCorpus:
    """A training input that is an output of a finished run folder: the folder, the card's config that holds
    the input, the card's name and licence, and :func:`corpus_summary` of its ``summary.json``."""

    folder: Path
    config: str
    name: str
    license: str | None
    languages: list[str]
    summary: str


def _card_config(card: DatasetCard, relative: str) -> str | None:
    """The config of ``card`` whose data files lie in the folder ``relative`` (a run's ``train``, ``pairs``...)."""
    for config in card.data.to_dict().get("configs") or []:
        for files in config.get("data_files") or []:
            if posixpath.dirname(files["path"]) == relative:
                return str(config["config_name"])
    return None


def run_corpus(data: str | Path) -> RunCorpus | None:
    """The finished run folder whose output (a Parquet folder, or one shard of it; the run folder itself: its
    ``train/``) is ``data``; None when
    ``data`` is no such output on this machine (a URL, a glob, a folder of other Parquet files)."""
    if "://" in str(data):
        return None
    path = Path(data).resolve()
    if (path / DEFINITION_FILE).is_file():  # a run folder given whole: the trainer reads its train/
        path = path / TRAIN
    output = path if path.is_dir() else path.parent
    folder = output.parent
    card_path, summary_path = folder / CARD_FILE, folder / SUMMARY_FILE
    if not (card_path.is_file() and summary_path.is_file()):
        return None
    card = DatasetCard.load(card_path)
    config = _card_config(card, output.name)
    if config is None:
        return None
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    language = card.data.language
    return RunCorpus(folder=folder, config=config, name=str(card.data.pretty_name or folder.name),
                     license=card.data.license, languages=[language] if isinstance(language, str) else
                     list(language or []), summary=corpus_summary(summary))
