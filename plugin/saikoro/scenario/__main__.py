"""``python -m saikoro.scenario validate|schema ...``."""

from __future__ import annotations

import sys

from ._cli import main

sys.exit(main())
