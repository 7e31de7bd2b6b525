"""``python -m train_embeddings``: train sentence embeddings (see :mod:`train_embeddings.trainer`; the command
line lives in cli/)."""

import sys

if __name__ == "__main__":
    from cli.train_command import main
    sys.exit(main())
