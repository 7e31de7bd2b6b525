"""What tests share that is not a test: input builders, example plug-ins, and the slow obvious references the
fast code is checked against."""
