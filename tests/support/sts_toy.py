"""A hand-made STS folder whose every cosine is known exactly (:data:`VECTORS`, :class:`ToyEncoder`), for the
tests that check the STS loaders' parsing and the evaluation's arithmetic against values worked out by hand."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

# A toy encoder: fixed 2-d vectors, so every cosine is known exactly.
VECTORS = {
    "a cat sits .": [1.0, 0.0],
    "a cat is sitting .": [2.0, 0.0],   # cos 1 with the first
    "the sky is blue .": [0.0, 3.0],    # cos 0 with "a cat sits ."
    "a dog sits .": [0.6, 0.8],         # cos 0.6
    "nothing at all": [-0.8, 0.6],      # cos -0.8
    "zero": [0.0, 0.0],
    '"nothing at all': [-0.8, 0.6],     # a quote is an ordinary character in STS-B (no CSV quoting)
}

R_FIRST = 4.2 / math.sqrt(18.4)  # by hand: deviations (.8, -.2, .4, -1) and (2, -1, 1, -2)
# Pooled 2012 of the toy data: cosines (1, 0, .6, -.8, .6, 1, 0) vs gold (4, 1, 3, 0, 2, 5, 0); average ranks
# (6.5, 2.5, 4.5, 1, 4.5, 6.5, 2.5) vs (6, 3, 5, 1.5, 4, 7, 1.5), both of mean 4: 25.75 / sqrt(26.5 * 27.5).
RHO_POOLED_2012 = 25.75 / math.sqrt(26.5 * 27.5)


class ToyEncoder:
    """Looks sentences up in VECTORS and records every call."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, sentences: list[str]) -> np.ndarray:
        self.calls.append(list(sentences))
        return np.asarray([VECTORS[s] for s in sentences], dtype=np.float32)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def write_toy_sts(root: Path) -> Path:
    """STS12 with three sub-datasets (one without input), STS13 with one, no STS14–16, and a tiny STS-B."""
    # 'first': cosines [1, 0, 0.6, -0.8] against gold [4, 1, 3, 0].
    write(root / "STS12" / "STS.input.first.txt",
          "a cat sits .\ta cat is sitting .\n"
          "a cat sits .\tthe sky is blue .\n"
          "a cat sits .\ta dog sits .\n"
          "a cat sits .\tnothing at all\n")
    write(root / "STS12" / "STS.gs.first.txt", "4\n1\n3.0\n0.000\n")
    # 'second': CRLF, stray whitespace, extra fields, unscored lines (one of them not even a pair), BOM.
    write(root / "STS12" / "STS.input.second.txt",
          "\ufeff a cat sits . \t a dog sits .\tsource-a\tsource-b\r\n"
          "this line is unscored and has no tab\r\n"
          "a cat sits .\ta cat is sitting .\r\n"
          "a cat sits .\tzero\r\n\r\n")
    write(root / "STS12" / "STS.gs.second.txt", " 2 \r\n\r\n5\r\n0\r\n\r\n")  # + a trailing blank line
    write(root / "STS12" / "STS.gs.nogold.txt", "1\n2\n")  # gold without input (like STS13 SMT): skipped
    write(root / "STS13" / "STS.input.only.txt", "a cat sits .\ta dog sits .\na cat sits .\tthe sky is blue .\n")
    write(root / "STS13" / "STS.gs.only.txt", "3\n0\n")
    # STS-B: genre, file, year, id, score, sentence1, sentence2 (no header line, no quoting, extra fields)
    write(root / "STSB" / "sts-dev.csv",
          "main-captions\tMSRvid\t2012test\t0001\t5.0\ta cat sits .\ta cat is sitting .\n"
          "main-captions\ttrack5.en-en\t2017\t0002\t1.0\ta cat sits .\tthe sky is blue .\n"
          "main-captions\ttrack5.en-en\t2017\t0003\t4.0\ta cat sits .\ta dog sits .\n")
    write(root / "STSB" / "sts-test.csv",
          "main-news\theadlines\t2016\t0004\t2.0\ta cat sits . \ta dog sits .\tEurope Media Monitor\textra\r\n"
          'main-captions\ttrack5.en-en\t2017\t0005\t0.5\ta cat sits .\t"nothing at all\r\n'
          "main-news\theadlines\t2016\t0006\t4.5\ta cat sits .\ta cat is sitting .\r\n"
          "main-captions\ttrack5.en-en\t2017\t0007\t3.0\ta cat sits .\ta dog sits .\r\n")
    return root


def write_sts2016_release(directory: Path) -> Path:
    """A small STS 2016 folder in the format SemEval distributed it (sts2016-english-with-gs-v1.0): four
    tab-separated input columns (sentence1, sentence2, then the source of each sentence), gold files with an
    empty line for every unscored pair. 'answer-answer': cosines (1, 0.6, -0.8) vs gold (5, 3, 0)."""
    write(directory / "STS2016.input.answer-answer.txt",
          "a cat sits .\ta cat is sitting .\tanswers.stackexchange.com/q/1\tanswers.stackexchange.com/q/2\n"
          "a cat sits .\tthe sky is blue .\tanswers.stackexchange.com/q/3\tanswers.stackexchange.com/q/4\n"
          "a cat sits .\ta dog sits .\tanswers.stackexchange.com/q/5\tanswers.stackexchange.com/q/6\n"
          "a cat sits .\tnothing at all\tanswers.stackexchange.com/q/7\tanswers.stackexchange.com/q/8\n")
    write(directory / "STS2016.gs.answer-answer.txt", "5\n\n3\n0\n")  # the second pair is unscored
    write(directory / "STS2016.input.headlines.txt",
          "a dog sits .\ta cat sits .\tEurope Media Monitor\tEurope Media Monitor\n"
          "the sky is blue .\ta cat sits .\tEurope Media Monitor\tEurope Media Monitor\n"
          "zero\ta cat sits .\tEurope Media Monitor\tEurope Media Monitor\n")
    write(directory / "STS2016.gs.headlines.txt", "4.2\n0.4\n\n")
    write(directory / "LICENSE.txt", "not an STS file\n")
    return directory
