"""Hands dice to the commands in BCDice's order, enforcing the rolling bounds.

BCDice quirks kept: a die with zero or negative sides shows 0 and uses no random
number; a non-positive count rolls nothing. Counts and sides above the bounds of
:mod:`saikoro.dice.limits` raise :class:`~saikoro.dice.errors.LimitError` (BCDice
would silently roll nothing for them).

>>> from .source import DiceSource
>>> r = Roller(DiceSource(dice=[(6, 6), (6, 1)]))
>>> r.d66("none"), r.used
(61, 2)
"""

from __future__ import annotations

from .limits import MAX_DICE_PER_COMMAND, MAX_DICE_PER_ROLL, MAX_SIDES, check
from .source import DiceSource

__all__ = ["Roller"]


class Roller:
    """A :class:`DiceSource` plus the per-command dice budget."""

    __slots__ = ("source", "used")

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.used = 0

    def once(self, sides: int) -> int:
        """One die (0 without rolling when ``sides <= 0``)."""
        if sides <= 0:
            return 0
        check(sides, MAX_SIDES, "sides", "ダイスの面数")
        self.used += 1
        check(self.used, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数")
        return self.source.roll(sides)

    def many(self, times: int, sides: int) -> list[int]:
        """``times`` dice (none when ``times <= 0``)."""
        if times <= 0:
            return []
        check(times, MAX_DICE_PER_ROLL, "dice_per_roll", "ダイスの個数")
        if sides > 0:
            check(sides, MAX_SIDES, "sides", "ダイスの面数")
            check(self.used + times, MAX_DICE_PER_COMMAND, "dice_per_command",
                  "1コマンドで振るダイスの数")
        return [self.once(sides) for _ in range(times)]

    def d66(self, sort: str) -> int:
        """Two d6 read as tens and units; ``sort`` is ``none``, ``asc`` or ``desc``."""
        a, b = self.once(6), self.once(6)
        if (sort == "asc" and a > b) or (sort == "desc" and a < b):
            a, b = b, a
        return a * 10 + b
