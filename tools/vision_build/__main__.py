"""``python -m tools.vision_build``: build the shipped card networks (see :mod:`tools.vision_build`)."""

import sys

from tools.vision_build.cli import main

sys.exit(main())
