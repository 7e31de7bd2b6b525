"""Where the evaluation data is found: the STS and SICK sets and the word counts the SIF baseline weighs words by
(none is bundled: their licences do not allow it). Each folder is set by an environment variable, and defaults to
its place in the data folder:

* ``PARANMT_DATA_DIR``: the data folder as a whole (``sts/``, ``sick/``, ``wordfreq/``); default ``../shared/data``
  from the folder a command runs in. The README's commands and the test suite run from the repository's root, so
  that is the ``shared/`` folder beside the repository; a command run from another folder that needs the data
  sets the variable, else its one-line error names the folder it looked in and the variable.
* ``PARANMT_STS_DIR``: the STS folder (``STS12`` … ``STS16``, ``STSB/``, ``STS2017/``); default ``<data>/sts``.
* ``PARANMT_SICK_DIR``: the SICK folder; default ``<data>/sick``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR_VARIABLE", "DEFAULT_DATA_DIR", "SICK_DIR_VARIABLE", "STS_DIR_VARIABLE", "data_dir", "sick_dir",
           "sts_dir", "word_counts_file"]

DATA_DIR_VARIABLE = "PARANMT_DATA_DIR"
STS_DIR_VARIABLE = "PARANMT_STS_DIR"
SICK_DIR_VARIABLE = "PARANMT_SICK_DIR"
#: Relative to the folder a command runs in.
DEFAULT_DATA_DIR = "../shared/data"
#: English Wikipedia word counts (``word count`` lines) for the SIF weights, in the data folder.
WORD_COUNTS = "wordfreq/enwiki_vocab_min200.txt"


def _folder(variable: str, default: str | Path) -> Path:
    # An absolute path, so that a message names the folder looked in and a later chdir changes nothing.
    return Path(os.path.abspath(os.environ.get(variable) or default))


def data_dir() -> Path:
    """``$PARANMT_DATA_DIR``, else ``../shared/data`` from the current folder."""
    return _folder(DATA_DIR_VARIABLE, DEFAULT_DATA_DIR)


def sts_dir() -> Path:
    """``$PARANMT_STS_DIR``, else ``sts/`` in :func:`data_dir`."""
    return _folder(STS_DIR_VARIABLE, data_dir() / "sts")


def sick_dir() -> Path:
    """``$PARANMT_SICK_DIR``, else ``sick/`` in :func:`data_dir`."""
    return _folder(SICK_DIR_VARIABLE, data_dir() / "sick")


def word_counts_file() -> Path:
    """The SIF baseline's word counts in :func:`data_dir` (whether or not the file is there)."""
    return data_dir() / WORD_COUNTS
