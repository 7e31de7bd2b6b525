"""Stage 6 of the pipeline, wired to filters/: fit (or load) the PARAGRAM-PHRASE scorer on the launcher, then
score and select in Beam with :class:`pipeline.score_transforms.ScoreAndSelect`.

The scorer is fitted before the job starts, on the English references of the first ``score.fit_sample`` rows of
the input (read in input order, so reruns fit the same scorer), and saved to ``<output>/scorer/scorer.npz``;
every worker loads that one file, so all pairs are scored by the same fitted state. ``score.scorer`` skips the
fitting and uses a saved scorer instead (the way to share one scorer between runs, or to fit it on a sample of
your choice with ``python -m filters.scores --save-scorer``).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Sequence
from typing import Any

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from core.text import TextProcessor
from filters.paragram import ParagramScorer
from pipeline.ingest import decode_record
from pipeline.input_files import InputError
from pipeline.input_plan import InputSpec, ReadPlan
from pipeline.input_reading import read_task
from pipeline.score_transforms import ScoreAndSelect, load_scorer

log = logging.getLogger(__name__)

SCORER_FILE = "scorer/scorer.npz"


def first_english_sentences(plan: ReadPlan, specs: Sequence[InputSpec], config: Any, n: int) -> list[list[str]]:
    """Moses tokens of the first ``n`` decodable, non-empty English references, in input order."""
    pc = config.pipeline
    text = TextProcessor(("en",))
    sentences: list[list[str]] = []
    for task in plan.tasks:
        spec = specs[task["input"]]
        for raw in read_task(task, pc.max_line_bytes, pc.deadletter_raw_bytes):
            kind, record = decode_record(raw, spec, pc.max_line_bytes, pc.deadletter_raw_bytes)
            if kind != "row" or not record["en"]:
                continue
            tokens = text.tokenize(record["en"], "en")
            if tokens:
                sentences.append(tokens)
                if len(sentences) >= n:
                    return sentences
    return sentences


def _save(scorer: ParagramScorer, path: str) -> None:
    """Save through Beam's FileSystems, so the output may be gs:// or s3:// as well as local."""
    with tempfile.TemporaryDirectory() as tmp:
        local = scorer.save(os.path.join(tmp, "scorer.npz"))
        if "://" not in path:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        handle = FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED)
        try:
            with open(local, "rb") as source:
                while chunk := source.read(1 << 24):
                    handle.write(chunk)
        finally:
            handle.close()


def prepare_scorer(config: Any, plan: ReadPlan, specs: Sequence[InputSpec], output: str) -> tuple[str, str]:
    """``(scorer path, scorer id)``: the saved scorer named by ``score.scorer``, or one fitted here and saved to
    ``<output>/scorer/scorer.npz``."""
    if config.score.scorer is not None:
        path = str(config.score.scorer)
        return path, load_scorer(path).scorer_id
    sentences = first_english_sentences(plan, specs, config, config.score.fit_sample)
    if not sentences:  # every row is a dead letter or has an empty English side: an input error, not a crash
        inputs = ", ".join(p for spec in specs for p in spec.paths)
        raise InputError(f"no English sentence to fit the paraphrase scorer on: no row of {inputs} has a "
                         "decodable, non-empty English side; check the files and the --en-column, or give a saved "
                         "scorer with --set score.scorer=FILE, or skip scoring with --no-score")
    scorer = ParagramScorer.from_config(config.score, sentences)
    path = FileSystems.join(output, SCORER_FILE)
    _save(scorer, path)
    log.info("fitted %s on %d English sentences; saved to %s", scorer.scorer_id, len(sentences), path)
    return path, scorer.scorer_id


def score_and_select(config: Any, scorer_path: str, scorer_id: str) -> ScoreAndSelect:
    """The default stage 6: scores from the fitted scorer, selection by ``config.filter`` (seeded by ``seed``)."""
    return ScoreAndSelect(scorer_path, config.filter, config.seed, scorer_id=scorer_id)
