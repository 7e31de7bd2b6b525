"""``python -m train_embeddings``: train sentence embeddings (see :mod:`train_embeddings.trainer`)."""

import sys

from configs.command_line import run_main
from train_embeddings.trainer import main

if __name__ == "__main__":
    sys.exit(run_main(main))
