"""STS data: SemEval STS 2012–2016, the STS Benchmark and the "STS2017" dev set, loaded into :class:`StsDataset`.

    from train_embeddings.evaluation.sts.datasets import load_benchmarks, sts2017_dev
    data = load_benchmarks()                         # StsBenchmarks: the years present and the STS-B sets
    dev = sts2017_dev()                              # the 250 track5.en-en pairs

**Data layout** (the folder :func:`paranmt.core.data_dirs.sts_dir` names, ``$PARANMT_STS_DIR``, by default
``sts/`` in the data folder; another root via ``root=``):

* ``STS12`` … ``STS16``: ``STS.input.<name>.txt`` (``sentence1<TAB>sentence2``) and ``STS.gs.<name>.txt`` (one gold
  score per line) per sub-dataset. The SemEval 2016 release as distributed (``sts2016-english-with-gs-v1.0/``:
  ``STS2016.input.<name>.txt`` with four tab-separated columns — sentence1, sentence2, then the source of each
  sentence — and ``STS2016.gs.<name>.txt``) is read too: the ``STS<year>.`` prefix is accepted beside ``STS.``, and
  a year's directory is ``STS16``, ``STS2016`` or ``sts2016-english-with-gs-v1.0`` under the root (or any
  directory given for it in ``year_dirs``). An **empty gold line means the pair is unscored**: it is skipped (its
  input line is not even parsed). A sub-dataset with gold but **no input** (STS13 ``SMT``, withheld for licence
  reasons) is skipped and listed in ``StsYear.missing_input``; a year directory that is absent (STS16 is not
  shipped here) is skipped by ``evaluate_all`` and listed in ``StsReport.missing_years``.
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
125 pairs (the clean held-out number for a model selected on STS2017). ``dev_score`` reads nothing else.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from paranmt.core.data_dirs import STS_DIR_VARIABLE, sts_dir
from paranmt.core.errors import ParanmtError
from train_embeddings.evaluation.sts_defaults import STS_YEARS

__all__ = [
    "STS2017_FILE",
    "STSB_SPLITS",
    "StsBenchmarks",
    "StsDataMissing",
    "StsDataset",
    "StsFormatError",
    "StsYear",
    "cached_sts2017_dev",
    "check_dev_data",
    "is_sts2017",
    "load_benchmarks",
    "load_sts_dataset",
    "load_sts_year",
    "load_stsb",
    "read_utf8_lines",
    "sts2017_dev",
    "stsb_without_sts2017",
    "year_directory",
]

logger = logging.getLogger(__package__)

STSB_SPLITS: tuple[str, ...] = ("train", "dev", "test")
STSB_COLUMNS: tuple[str, ...] = ("genre", "file", "year", "id")  # metadata kept per pair (score, sentences apart)
STS2017_FILE = "track5.en-en"


class StsFormatError(ParanmtError, ValueError):
    """An STS file cannot be read; the message names the file (and the line where there is one)."""


class StsDataMissing(ParanmtError, FileNotFoundError):
    """The STS files an evaluation needs are not there; the message names the file, the variable and the way out."""


def check_dev_data(root: Path | None = None) -> Path:
    """The STS folder the trainer's default dev evaluation reads (:func:`~paranmt.core.data_dirs.sts_dir`); raises
    :class:`StsDataMissing` naming the variable and ``--no-eval`` when its STS-B dev/test files are missing, so a
    run without them stops before any work (``paranmt train``: before torch loads) instead of at its first
    evaluation."""
    root = Path(root if root is not None else sts_dir())
    missing = [path for path in (root / "STSB" / f"sts-{split}.csv" for split in ("dev", "test"))
               if not path.is_file()]
    if missing:
        raise StsDataMissing(f"the dev evaluation needs the STS Benchmark files ({missing[0]} not found): set "
                             f"{STS_DIR_VARIABLE} to the folder holding STSB/sts-dev.csv and STSB/sts-test.csv, or "
                             "train without evaluation (--no-eval; no best/ model)")
    return root


def year_directory(year: int, root: str | Path | None = None) -> Path:
    """``<root>/STS12`` for 2012, …, ``<root>/STS16`` for 2016; where that is absent, the first existing of
    ``<root>/STS2016`` and the SemEval release folder ``<root>/sts2016-english-with-gs-v1.0`` (any year)."""
    base = Path(root if root is not None else sts_dir())
    short = base / f"STS{year % 100:02d}"
    if short.is_dir():
        return short
    for candidate in (base / f"STS{year}", base / f"sts{year}-english-with-gs-v1.0"):
        if candidate.is_dir():
            return candidate
    return short


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


def read_utf8_lines(path: Path, error: type[ValueError] = StsFormatError) -> list[str]:
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


_YEAR_DIR = re.compile(r"STS(?:20)?(\d{2})(?:$|-)", re.IGNORECASE)
# STS.input.<name>.txt (SentEval layout) or STS2016.input.<name>.txt (SemEval's distribution); same for gs.
_STS_FILE = re.compile(r"STS(?:\d{4})?\.(input|gs)\.(.+)\.txt$")


def _sts_file_name(filename: str, kind: str) -> str | None:
    """The sub-dataset name of an ``STS[<year>].<kind>.<name>.txt`` file name, else ``None``."""
    match = _STS_FILE.fullmatch(filename)
    return match.group(2) if match and match.group(1) == kind else None


def _sts_files(directory: Path, kind: str) -> dict[str, Path]:
    """name -> path of the ``STS[<year>].<kind>.<name>.txt`` files of ``directory``."""
    found: dict[str, Path] = {}
    for path in sorted(directory.iterdir()):
        name = _sts_file_name(path.name, kind)
        if name is not None and path.is_file():
            if name in found:
                raise StsFormatError(f"{directory}: both {found[name].name} and {path.name} give sub-dataset "
                                     f"{name!r}: keep one of them")
            found[name] = path
    return found


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
    inputs = read_utf8_lines(input_path)
    while inputs and not inputs[-1].strip():
        inputs.pop()
    gold = read_utf8_lines(gold_path)
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
        name = _sts_file_name(input_path.name, "input") or input_path.stem
    return StsDataset(name, tuple(sentences1), tuple(sentences2), np.asarray(scores, np.float64), year=year,
                      source=str(input_path), unscored=unscored)


def load_sts_year(year_dir: str | Path, *, year: int | None = None) -> StsYear:
    """Every sub-dataset of an STS 2012–2016 directory (``STS.input.<name>.txt`` + ``STS.gs.<name>.txt``, or
    SemEval's ``STS2016.input.<name>.txt`` + ``STS2016.gs.<name>.txt``).

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
    inputs = _sts_files(directory, "input")
    golds = _sts_files(directory, "gs")
    if not inputs and not golds:
        raise StsFormatError(f"{directory}: no STS.input.<name>.txt / STS.gs.<name>.txt files (nor the "
                             "STS<year>.input/gs.<name>.txt of a SemEval release)")
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
        path = Path(root if root is not None else sts_dir()) / "STSB" / f"sts-{split}.csv"
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"STS-B file {path} not found")
    columns: dict[str, list[str]] = {key: [] for key in STSB_COLUMNS}
    sentences1: list[str] = []
    sentences2: list[str] = []
    scores: list[float] = []
    unscored = 0
    for lineno, line in enumerate(read_utf8_lines(path), start=1):
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


def is_sts2017(dataset: StsDataset) -> np.ndarray:
    """Mask of the STS-B rows whose ``file`` column is ``track5.en-en`` (the STS2017 pairs)."""
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
    dataset = _concat([part.subset(is_sts2017(part), part.name) for part in parts], "STS2017")
    if len(dataset) != 250:
        logger.warning("STS2017 has %d pairs (the paper's has 250): check the STS-B files", len(dataset))
    return dataset


def stsb_without_sts2017(test: StsDataset) -> StsDataset:
    """STS-B test minus its ``track5.en-en`` rows (the 125 pairs that :func:`sts2017_dev` uses for selection)."""
    return test.subset(~is_sts2017(test), f"{test.name} without STS2017")


@dataclass(frozen=True, eq=False)
class StsBenchmarks:
    """Everything :func:`~train_embeddings.evaluation.sts.evaluator.evaluate_all` reads, loaded once: the STS years
    present, and the STS-B sets.

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
                    cache: bool = True, year_dirs: Mapping[int, str | Path] | None = None) -> StsBenchmarks:
    """Load the STS years that exist under ``root`` (absent ones are listed in ``missing_years``) and, with
    ``stsb``, STS-B dev/test and STS2017. ``year_dirs``: a directory for a year wherever it lies (e.g. ``{2016:
    "sts2016-english-with-gs-v1.0"}``, the SemEval release). ``cache``: reuse an earlier load of the same
    arguments (the trainer evaluates many times)."""
    root = Path(root if root is not None else sts_dir()).resolve()
    explicit = tuple(sorted((int(y), str(Path(d).resolve())) for y, d in (year_dirs or {}).items()))
    key = (str(root), tuple(int(y) for y in years), bool(stsb), explicit)
    return _load_benchmarks_cached(*key) if cache else _load_benchmarks(*key)


def _load_benchmarks(root_text: str, years: tuple[int, ...], stsb: bool,
                     year_dirs: tuple[tuple[int, str], ...] = ()) -> StsBenchmarks:
    root = Path(root_text)
    explicit = dict(year_dirs)
    if not root.is_dir() and (stsb or set(years) - set(explicit)):
        raise FileNotFoundError(f"STS data directory {root} not found (set {STS_DIR_VARIABLE}, or give the root: "
                                "--sts-dir on the command line)")
    loaded: list[StsYear] = []
    missing: list[int] = []
    for year in sorted({*years, *explicit}):
        directory = Path(explicit[year]) if year in explicit else year_directory(year, root)
        if year in explicit and not directory.is_dir():
            raise FileNotFoundError(f"STS {year} directory {directory} not found")
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
def cached_sts2017_dev(root_text: str) -> StsDataset:
    """:func:`sts2017_dev` of a resolved root, loaded once per root (the trainer scores it many times)."""
    return sts2017_dev(root_text)
