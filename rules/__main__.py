"""Run the rules engine's command line: ``python -m rules meld|score|check-play``."""

import sys

from .cli import main

sys.exit(main())
