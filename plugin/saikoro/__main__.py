"""``python -m saikoro``: the same as the ``saikoro`` command."""

from __future__ import annotations

import sys

from ._start import main

sys.exit(main())
