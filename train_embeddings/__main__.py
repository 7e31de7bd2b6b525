"""``python -m train_embeddings``: the same command as ``paranmt train`` (:mod:`train_embeddings.train_command`)."""

from paranmt.core.command_line import run_program
from train_embeddings.train_command import main

if __name__ == "__main__":
    run_program(main)
