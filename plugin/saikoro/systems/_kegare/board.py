"""The 穢れ game's positions as a tiny board: near, mid and far from the enemy.

>>> b = PositionBoard()
>>> b.cells()
('near', 'mid', 'far')
>>> b.contains("遠"), b.contains("centre")
(True, False)
>>> b.distance("near", "遠距離"), b.penalty("mid")
(2, -2)
"""

from __future__ import annotations

from saikoro.systems._base import RulesError

from .checks import Position

__all__ = ["PositionBoard"]


class PositionBoard:
    """The three positions; a cell name may be English, a letter, or Japanese."""

    __slots__ = ()

    def cells(self) -> tuple[str, ...]:
        """``near``, ``mid``, ``far`` (closest first)."""
        return tuple(p.value for p in Position)

    def contains(self, cell: str) -> bool:
        """Whether ``cell`` names a position (``near``/``N``/``近``/``近距離``...)."""
        try:
            Position.parse(cell)
        except RulesError:
            return False
        return True

    def distance(self, a: str, b: str) -> int:
        """Steps between two positions (a move changes position in one auxiliary action)."""
        order = list(Position)
        return abs(order.index(Position.parse(a)) - order.index(Position.parse(b)))

    def penalty(self, cell: str) -> int:
        """The attack modifier a character at ``cell`` gives and takes (0, -2, -4)."""
        return Position.parse(cell).penalty

    def label(self, cell: str) -> str:
        """The Japanese name of ``cell``."""
        return Position.parse(cell).label
