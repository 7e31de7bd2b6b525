"""``python -m pipeline`` is ``python -m pipeline.run``."""

import sys

from pipeline.run import main

sys.exit(main())
