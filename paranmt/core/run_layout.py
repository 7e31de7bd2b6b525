"""A run folder's layout, relative to ``<out>``: every name a corpus run writes there.

Beam-free, so that any reader (``paranmt score``, ``report``, ``lexicon``, ``train``) can tell a run folder from a
folder of shards and open the part it means (:func:`paranmt.core.parquet_inputs.read_parquet_input`).
"""

from __future__ import annotations

PAIRS, TRAIN, REJECTED, DEADLETTER = "pairs", "train", "rejected", "deadletter"
OUTPUTS = (PAIRS, TRAIN, REJECTED, DEADLETTER)  # Parquet folders, staged and renamed into place
LEXICON_DIR = "lexicon"  # the optional lexicon branch's tables, staged and renamed like OUTPUTS
STAGING = "_staging"  # where the outputs are written before the job succeeds
SCORER_DIR = "scorer"
SCORER_FILE = f"{SCORER_DIR}/scorer.npz"  # the scorer a run fits
CACHE_DIR = "cache"  # the translation cache, unless pipeline.cache_dir
LOCK_FILE = "_LOCK"  # beside it the run's definition, paranmt.core.run_definition.DEFINITION_FILE
SUMMARY_FILE = "summary.json"
SUCCESS_FILE = "_SUCCESS"  # the outputs are in place and their checks hold
CARD_FILE = "README.md"  # the dataset card, written when the run succeeds
REPORT_DIR = "report"  # `paranmt report`'s statistics and plots of this run's pairs, shown by the card
