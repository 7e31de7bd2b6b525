"""What a run leaves behind and reports: its folder (run_folder: the lock, the run's definition, the layout), the
summary with its accounting, and the summary's verdict on the translator (translator_check)."""
