"""``python -m paranmt``: the same command as the ``paranmt`` console script."""

import sys

from paranmt.cli.paranmt_command import main

if __name__ == "__main__":
    sys.exit(main())
