"""``python -m companion`` is the ``crib`` command."""

import sys

from companion.cli import main

sys.exit(main())
