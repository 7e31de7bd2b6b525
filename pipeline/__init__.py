"""The corpus pipeline: the only package that imports Apache Beam. It composes the Beam-free packages into one
job (:mod:`pipeline.graph`) that writes the Parquet contract of :mod:`paranmt.core.pair_schema`; see
docs/architecture.md."""

import logging


def _not_beam_apitools_warning(record: logging.LogRecord) -> bool:
    # Beam (without its [gcp] extra) logs this through the root logger on every import; it says nothing about
    # this project's runs. Every entry point imports this package before Beam, so one root filter drops it.
    return not record.getMessage().startswith("apitools not found, and bigquery client libraries")


logging.getLogger().addFilter(_not_beam_apitools_warning)
