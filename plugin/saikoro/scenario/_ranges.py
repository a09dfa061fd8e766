"""Ranges an author writes: ``balance.win`` (``60%-90%``) and ``players`` (``3-5``).

Here, below the simulator, because validation reads them too.

>>> parse_win_range("60%-90%")
(Fraction(3, 5), Fraction(9, 10))
>>> party_size("3-5"), party_size(2), party_size(None)
(3, 2, 4)
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["parse_win_range", "party_size"]


_WIN = r"([0-9]{1,3}(?:\.[0-9]+)?)\s*%?\s*[-~〜～]\s*([0-9]{1,3}(?:\.[0-9]+)?)\s*%"


def parse_win_range(text: str) -> tuple[Fraction, Fraction] | None:
    """``"60%-90%"`` as two fractions, or ``None`` when malformed or backwards.

    >>> parse_win_range("60%-90%")
    (Fraction(3, 5), Fraction(9, 10))
    >>> parse_win_range("45〜55%")
    (Fraction(9, 20), Fraction(11, 20))
    >>> parse_win_range("90%-60%") is None
    True
    """
    m = re.fullmatch(_WIN, text.strip())
    if not m:
        return None
    low, high = (Fraction(g) / 100 for g in m.groups())
    if low > high or high > 1:
        return None
    return low, high


def party_size(players: int | str | None, default: int = 4) -> int:
    """The party size a scenario's ``players`` asks for: the smallest it names.

    >>> party_size("3-5"), party_size(2), party_size(None), party_size("3〜4")
    (3, 2, 4, 3)
    """
    if players is None:
        return default
    if isinstance(players, int):
        return players
    return int(re.split(r"[-~〜～]", str(players))[0])
