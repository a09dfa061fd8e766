"""The error this system raises for values its rules do not allow.

>>> issubclass(CutActionError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["CutActionError"]


class CutActionError(ValueError):
    """A value outside the cut-action rules: an unknown row, rule choice, die result or side."""
