"""``python -m saikoro.scenario validate|schema ...``: the same as ``saikoro validate|schema``."""

from __future__ import annotations

import sys

from saikoro._cli import main

args = sys.argv[1:]
if not args or args[0] not in ("validate", "schema"):
    sys.stderr.write("usage: python -m saikoro.scenario {validate,schema} ...\n")
    sys.exit(2)
sys.exit(main(args))
