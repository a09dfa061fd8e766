"""Entry points of the dice engine: :func:`roll` and :func:`odds` (being written)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from .extension import Extension
from .result import Odds, Roll

__all__ = ["odds", "roll"]


def roll(
    command: str,
    *,
    extension: Extension | None = None,
    dice: Iterable[tuple[int, int]] | None = None,
    rng: random.Random | None = None,
) -> Roll | None:
    """Roll ``command``; ``None`` when the text is not a command."""
    raise NotImplementedError


def odds(command: str, *, extension: Extension | None = None) -> Odds | None:
    """Exact odds of ``command``; ``None`` when the text is not a command."""
    raise NotImplementedError
