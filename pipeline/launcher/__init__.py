"""What the launcher does around a job: start it and report (launch), the checks before any work (preflight), Beam's
options, the progress line, Ctrl-C and SIGTERM (interrupts), the job's log file and the free disk space."""
