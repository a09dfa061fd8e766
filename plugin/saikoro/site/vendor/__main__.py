"""``python -m saikoro.site.vendor``: copy the pinned runtimes into the package."""

import sys

from . import main

sys.exit(main())
