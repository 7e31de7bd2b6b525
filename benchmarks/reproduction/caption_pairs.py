"""A baseline training corpus of real paraphrases: Multi30k caption pairs (captions of the same image), with every
caption whose normalised text equals an STS sentence dropped. The learning check
(tests/train_embeddings/training/test_learning_check.py) and the reproduction's comparison
(benchmarks/reproduction/reproduce.py) train on it.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.paths import SHARED
from configs.schema import ScoreConfig
from filters.folds import assign_folds
from filters.paragram import ParagramScorer
from paranmt.core.pair_schema import PAIRS_SCHEMA, with_metadata
from paranmt.core.text import TextProcessor
from paranmt.core.word_vectors import load_kumo
from translate.cached_models import default_cache_dir

SHARED_DATA = SHARED / "data"
CAPTIONS = SHARED_DATA / "paraphrase" / "multi30k-captions"


def shared(relative: str) -> Path:
    """A path under ../shared/data (the real data sets beside the repository)."""
    path = SHARED_DATA / relative
    if not path.exists():
        raise FileNotFoundError(f"{path} is absent: the caption corpus needs ../shared/data beside the repository")
    return path


@functools.cache
def _english() -> TextProcessor:
    return TextProcessor(("en",))


def tokenize(sentences: Sequence[str]) -> list[list[str]]:
    """English Moses tokens, as the pipeline tokenises the English side."""
    return [_english().tokenize(s, "en") for s in sentences]


def normalise(sentence: str) -> str:
    return " ".join(re.findall(r"\w+", sentence.lower()))


def sts_pairs(year: str, name: str) -> tuple[list[str], list[str], np.ndarray]:
    """Scored pairs of one STS sub-dataset (an empty gold line means unscored: skipped)."""
    directory = shared(f"sts/{year}")
    inputs = (directory / f"STS.input.{name}.txt").read_text(encoding="utf-8").split("\n")
    gold = (directory / f"STS.gs.{name}.txt").read_text(encoding="utf-8").split("\n")
    left, right, scores = [], [], []
    for pair, score in zip(inputs, gold, strict=False):
        if not score.strip():
            continue
        a, b = pair.split("\t")[:2]
        left.append(a.strip())
        right.append(b.strip())
        scores.append(float(score))
    return left, right, np.asarray(scores)


def all_sts_sentences() -> set[str]:
    root = shared("sts")
    found: set[str] = set()
    for path in root.glob("STS1*/STS.input.*.txt"):
        for line in path.read_text(encoding="utf-8").splitlines():
            found.update(normalise(s) for s in line.split("\t")[:2])
    for path in root.glob("STSB/sts-*.csv"):
        for line in path.read_text(encoding="utf-8").splitlines():
            fields = line.split("\t")
            found.update(normalise(s) for s in fields[5:7])
    found.discard("")
    return found


def cache_root() -> Path:
    return default_cache_dir() / "train_learning"


def caption_lines(k: int, images: int | None = None, folder: Path = CAPTIONS) -> list[str]:
    """The first ``images`` captions (None: all) of ``train.<k>.en`` of the Multi30k captions in ``folder``, line i
    describing image i in every file."""
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is absent: the caption corpus needs ../shared/data beside the repository")
    return (folder / f"train.{k}.en").read_text(encoding="utf-8").splitlines()[:images]


def caption_tokens(k: int, images: int | None = None, folder: Path = CAPTIONS) -> pa.Array:
    """:func:`tokenize` of :func:`caption_lines` as a list<string> array, cached by the lines' content (tokenising
    a file's 29,000 captions takes a while)."""
    lines = caption_lines(k, images, folder)
    key = hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()[:16]
    cached = cache_root() / f"train.{k}.{key}.tokens.parquet"
    if cached.is_file():
        return pq.read_table(cached)["tokens"].combine_chunks()
    tokens = pa.array(tokenize(lines), pa.list_(pa.string()))
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    pq.write_table(pa.table({"tokens": tokens}), tmp)
    os.replace(tmp, cached)  # whole or absent: benchmarks running side by side share the cache
    return tokens


def sif_scorer(fit_tokens: list[list[str]]) -> ParagramScorer:
    """The pipeline's default paraphrase scorer: SIF-weighted GloVe (enwiki frequencies), first PC removed."""
    return ParagramScorer.fit(load_kumo(), fit_tokens[:50_000],
                              ScoreConfig(word_frequencies=shared("wordfreq/enwiki_vocab_min200.txt")))


def build_caption_pairs(directory: Path, images: int, selection: str = "chain") -> dict:
    """Caption pairs per image (``chain``: k and k+1; ``top2``: all 10, then the top two deciles by paraphrase score
    with both sides <= 30 tokens), leaked captions dropped, group = image; Parquet shards."""
    leaked = all_sts_sentences()
    captions = [(caption_lines(k, images), caption_tokens(k, images).to_pylist()) for k in range(1, 6)]
    columns: dict[str, list] = {name: [] for name in ("id", "en", "mt", "en_tokens", "mt_tokens")}
    image_ids: list[str] = []
    dropped = 0
    combine = {"chain": itertools.pairwise, "top2": lambda kept: itertools.combinations(kept, 2)}[selection]
    for i in range(min(images, len(captions[0][0]))):
        kept = [k for k in range(5) if normalise(captions[k][0][i]) not in leaked]
        dropped += 5 - len(kept)
        for a, b in combine(kept):
            columns["id"].append(f"img{i}:{a + 1}-{b + 1}")
            columns["en"].append(captions[a][0][i])
            columns["mt"].append(captions[b][0][i])
            columns["en_tokens"].append(captions[a][1][i])
            columns["mt_tokens"].append(captions[b][1][i])
            image_ids.append(f"img{i}")
    extra = {}
    if selection == "top2":
        score = sif_scorer(columns["en_tokens"]).score(columns["en_tokens"], columns["mt_tokens"])[0]
        short = np.array([max(len(a), len(b)) <= 30 for a, b in zip(columns["en_tokens"], columns["mt_tokens"],
                                                                    strict=True)])
        chosen = np.flatnonzero((assign_folds(score, columns["id"], 10, seed=0) >= 9) & short)
        extra = {"candidate_pairs": len(image_ids), "min_score_kept": round(float(score[chosen].min()), 4)}
        columns = {name: [values[i] for i in chosen] for name, values in columns.items()}
        image_ids = [image_ids[i] for i in chosen]
    n = len(image_ids)
    columns = {**columns, "source": ["multi30k"] * n, "keep": [True] * n}
    table = pa.Table.from_pydict({f.name: columns.get(f.name, [None] * n) for f in PAIRS_SCHEMA},
                                 schema=with_metadata(PAIRS_SCHEMA)).append_column("image", pa.array(image_ids))
    directory.mkdir(parents=True, exist_ok=True)
    per = -(-n // 4)
    for s in range(4):
        pq.write_table(table.slice(s * per, per), directory / f"pairs-{s:05d}-of-00004.parquet")
    sentences = {normalise(x) for x in columns["en"] + columns["mt"]}
    return {"selection": selection, "pairs": n, "images": images, "captions_dropped_as_sts": dropped,
            "training_sentences_in_sts": len(sentences & leaked), **extra}
