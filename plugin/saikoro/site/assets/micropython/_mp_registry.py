"""Entry points of the systems in the browser's engine archive (replaced at build time)."""

ENTRY_POINTS = ()
