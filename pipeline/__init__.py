"""The corpus pipeline: the only package that imports Apache Beam. It composes the Beam-free packages into one
job (:mod:`pipeline.graph`) that writes the Parquet contract of :mod:`paranmt.core.pair_schema`; see
docs/architecture.md."""
