"""The corpus pipeline (Apache Beam) and the Parquet contract it writes (:mod:`core.pair_schema`)."""

import logging


def _not_beam_apitools_warning(record: logging.LogRecord) -> bool:
    # Beam (without its [gcp] extra) logs this through the root logger on every import; it says nothing about
    # this project's runs. Every entry point imports this package before Beam, so one root filter drops it.
    return not record.getMessage().startswith("apitools not found, and bigquery client libraries")


logging.getLogger().addFilter(_not_beam_apitools_warning)
