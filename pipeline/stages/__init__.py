"""The job's stages, in flow order: ingest, pre-filter, dedup, back-translation (its workers' decoder in
worker_translator), pair records, the scorer's fit, the selection, and the Parquet writes."""
