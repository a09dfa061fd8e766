"""Hands dice to the commands in BCDice's order, enforcing the rolling bounds.

BCDice quirks kept: a die with zero, negative or more than ``MAX_SIDES`` sides shows 0
and uses no random number; a non-positive count, or a count above ``MAX_DICE_PER_ROLL``
in one notation, rolls nothing (``500D6`` prints ``(500D6) ＞ 0``). Only more than
``MAX_DICE_PER_COMMAND`` random numbers for one command raise
:class:`~saikoro.dice._errors.LimitError` (BCDice raises its own error there).

>>> from ._source import DiceSource
>>> r = Roller(DiceSource(dice=[(6, 6), (6, 1)]))
>>> r.d66("none"), r.used
(61, 2)
"""

from __future__ import annotations

from ._limits import MAX_DICE_PER_COMMAND, MAX_DICE_PER_ROLL, MAX_SIDES, check
from ._source import DiceSource

__all__ = ["Roller"]


class Roller:
    """A :class:`DiceSource` plus the per-command dice budget."""

    __slots__ = ("source", "used")

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.used = 0

    def once(self, sides: int) -> int:
        """One die (0 without rolling when ``sides`` is not in ``1..MAX_SIDES``)."""
        if sides <= 0 or sides > MAX_SIDES:
            return 0
        self.used += 1
        check(self.used, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数")
        return self.source.roll(sides)

    def many(self, times: int, sides: int) -> list[int]:
        """``times`` dice (none when ``times <= 0`` or ``times > MAX_DICE_PER_ROLL``).

        >>> Roller(DiceSource(dice=[])).many(201, 6)
        []
        """
        if times <= 0:
            return []
        self.reserve(times)
        if times > MAX_DICE_PER_ROLL:
            return []
        return [self.once(sides) for _ in range(times)]

    def reserve(self, count: int) -> None:
        """Fail at once if ``count`` more random numbers would pass the command's budget."""
        check(
            self.used + count, MAX_DICE_PER_COMMAND, "dice_per_command", "1コマンドで振るダイスの数"
        )

    def d66(self, sort: str) -> int:
        """Two d6 read as tens and units; ``sort`` is ``none``, ``asc`` or ``desc``."""
        a, b = self.once(6), self.once(6)
        if (sort == "asc" and a > b) or (sort == "desc" and a < b):
            a, b = b, a
        return a * 10 + b
