"""The corpus pipeline (Apache Beam) and the Parquet contract it writes (:mod:`pipeline.schema`)."""
