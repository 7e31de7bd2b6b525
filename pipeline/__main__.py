"""``python -m pipeline`` is ``python -m pipeline.run`` (the command line lives in cli/)."""

import sys

if __name__ == "__main__":
    from cli.run_command import main
    sys.exit(main())
