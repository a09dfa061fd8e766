"""Where dice values come from: a random generator or a list of given dice.

Every roll asks one :class:`DiceSource` for each die in the order BCDice asks for it,
so a roll can be replayed exactly from ``roll.dice``.

>>> s = DiceSource(dice=[(6, 5), (6, 3)])
>>> s.roll(6), s.roll(6)
(5, 3)
>>> s.used
((6, 5), (6, 3))
>>> s.roll(6)
Traceback (most recent call last):
...
saikoro.dice._errors.DiceExhaustedError: 与えられたダイスが足りません (3個目の6面ダイス)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ._errors import DiceExhaustedError, DiceMismatchError

if TYPE_CHECKING:
    import random

__all__ = ["DiceSource"]


class DiceSource:
    """Hands out die results, from ``dice`` (``(sides, value)`` pairs) or from ``rng``."""

    __slots__ = ("_given", "_index", "_rng", "_used")

    def __init__(
        self,
        *,
        dice: Iterable[tuple[int, int]] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._given = None if dice is None else [(int(s), int(v)) for s, v in dice]
        self._index = 0
        self._rng = rng
        self._used: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        """One die of ``sides`` sides."""
        if self._given is not None:
            if self._index >= len(self._given):
                raise DiceExhaustedError(
                    f"与えられたダイスが足りません ({self._index + 1}個目の{sides}面ダイス)"
                )
            want, value = self._given[self._index]
            if want != sides:
                raise DiceMismatchError(
                    f"{self._index + 1}個目のダイスは{want}面ですが、{sides}面ダイスが必要です"
                )
            if not 1 <= value <= sides:
                raise DiceMismatchError(
                    f"{self._index + 1}個目のダイスの出目{value}は1〜{sides}の範囲外です"
                )
            self._index += 1
        else:
            if self._rng is None:
                import random  # only needed when no dice are given

                self._rng = random.SystemRandom()
            value = self._rng.randint(1, sides)
        self._used.append((sides, value))
        return value

    def roll_many(self, count: int, sides: int) -> list[int]:
        """``count`` dice of ``sides`` sides, in order."""
        return [self.roll(sides) for _ in range(count)]

    @property
    def used(self) -> tuple[tuple[int, int], ...]:
        """Every die handed out so far, as ``(sides, value)``."""
        return tuple(self._used)

    @property
    def remaining(self) -> int | None:
        """How many given dice are left (``None`` when rolling at random)."""
        return None if self._given is None else len(self._given) - self._index
