import sys

from translate.cli import main

sys.exit(main())
