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

import itertools
import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ._digits import digit_count
from ._errors import DiceExhaustedError, DiceMismatchError, GivenDiceError
from ._limits import MAX_SIDES

if TYPE_CHECKING:
    import random

__all__ = ["DiceSource"]


MAX_GIVEN_DICE = 100_000
"""Dice ``dice=`` may list (a command uses at most ``MAX_DICE_PER_COMMAND``)."""


def _given_dice(dice: object) -> list[tuple[int, int]]:
    """``dice`` as ``(sides, value)`` pairs of integers, or :class:`GivenDiceError`.

    >>> _given_dice([(6, 3), [10, 10]])
    [(6, 3), (10, 10)]
    >>> _given_dice(["6:3"])
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.GivenDiceError: dice: 1個目が (面数, 出目) の組ではありません: '6:3'
    """
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise GivenDiceError(f"dice: (面数, 出目) の組の列が必要です: {_shown(dice)}")
    out: list[tuple[int, int]] = []
    for i, pair in enumerate(dice, 1):
        if i > MAX_GIVEN_DICE:
            raise GivenDiceError(f"dice: 与えるダイスは{MAX_GIVEN_DICE}個までです")
        if isinstance(pair, str | bytes) or not isinstance(pair, Iterable):
            raise GivenDiceError(f"dice: {i}個目が (面数, 出目) の組ではありません: {_shown(pair)}")
        items = list(itertools.islice(pair, 3))
        if len(items) != 2:
            raise GivenDiceError(f"dice: {i}個目が (面数, 出目) の組ではありません: {_shown(pair)}")
        numbers = []
        for what, number in zip(("面数", "出目"), items, strict=True):
            try:
                if isinstance(number, bool):
                    raise TypeError
                numbers.append(operator.index(number))  # int, or what says it is one
            except TypeError:
                message = f"dice: {i}個目の{what}が整数ではありません: {_shown(number)}"
                raise GivenDiceError(message) from None
        sides, value = numbers
        if not 1 <= sides <= MAX_SIDES:
            raise GivenDiceError(f"dice: {i}個目の面数は1〜{MAX_SIDES}です: {_shown(sides)}")
        if not 1 <= value <= MAX_SIDES:  # a face of its die: checked when it is used
            raise GivenDiceError(f"dice: {i}個目の出目は1〜{sides}です: {_shown(value)}")
        out.append((sides, value))
    return out


def _shown(value: object) -> str:
    """A short ``repr`` of a given value for a message (no 5,000-digit numbers)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"{digit_count(value)}桁の整数"
    try:
        text = repr(value)
    except ValueError:  # pragma: no cover - a repr that cannot be made
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


class DiceSource:
    """Hands out die results, from ``dice`` (``(sides, value)`` pairs) or from ``rng``."""

    __slots__ = ("_given", "_index", "_rng", "_used")

    def __init__(
        self,
        *,
        dice: Iterable[tuple[int, int]] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._given = None if dice is None else _given_dice(dice)
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
