"""The job's stages, in flow order: ingest, pre-filter, dedup, back-translation (its workers' decoder in
nmt_inference), pair records, the scorer's fit, the selection, and the Parquet writes."""
