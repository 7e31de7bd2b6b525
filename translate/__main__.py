"""``python -m translate`` is ``python -m translate.file_translator`` (the command line lives in cli/)."""

import sys

if __name__ == "__main__":
    from cli.translate_command import main
    sys.exit(main())
