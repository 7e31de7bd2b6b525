"""Reading the inputs: the launcher's checked read plan (plan), opening and decompressing the files (files), and the
raw records with stable ids that the readers hand to ingest (reading)."""
