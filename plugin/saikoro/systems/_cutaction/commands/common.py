"""Helpers shared by the command modules: settings, check rolls, result words.

>>> from saikoro.dice import DiceSource
>>> from saikoro.systems._cutaction.rulings import Settings
>>> check_roll(Settings(check_dice="2D6"), 7, DiceSource(dice=[(6, 3), (6, 4)]))[1]
'7[3,4]'
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from saikoro.dice import DiceSource
from saikoro.systems._cutaction.checks import CheckResult, dice_shape, resolve_check
from saikoro.systems._cutaction.expr import is_plain_int
from saikoro.systems._cutaction.rulings import Settings

__all__ = [
    "NUM",
    "SEP",
    "check_roll",
    "describe",
    "dice_of",
    "int_keys",
    "sorted_ints",
    "sv_note",
    "word",
]

SEP = " ＞ "
"""BCDice's separator between the parts of a result."""
NUM = r"[-+*/()\d]+"
"""Pattern of an integer expression parameter (success values, targets)."""


def dice_of(settings: Settings) -> str:
    """The check dice option (``"1D10"``)."""
    return settings.check_dice


def check_roll(
    settings: Settings, sv: int, source: DiceSource, target: int = 0
) -> tuple[CheckResult, str]:
    """Roll a check; returns the result and the dice as BCDice shows them (``3``, ``7[3,4]``)."""
    count, sides = dice_shape(dice_of(settings))
    values = source.roll_many(count, sides)
    text = str(values[0]) if count == 1 else f"{sum(values)}[{','.join(map(str, values))}]"
    return resolve_check(sv, sum(values), target=target, dice=dice_of(settings)), text


def word(r: CheckResult) -> str:
    """成功 / 失敗 / ファンブル."""
    return "ファンブル" if r.fumble else ("成功" if r.success else "失敗")


def describe(r: CheckResult, dice_text: str) -> str:
    """One contestant's roll: ``3(達成値4)`` or ``10(ファンブル)``."""
    return f"{dice_text}(ファンブル)" if r.fumble else f"{dice_text}(達成値{r.achievement})"


def sv_note(raw: str, value: int) -> list[str]:
    """``["成功値4"]`` when the success value was written as an expression."""
    return [] if is_plain_int(raw) else [f"成功値{value}"]


def int_keys(d: Mapping[int, Fraction]) -> dict[int | str, Fraction]:
    """An int-keyed mapping typed for :class:`saikoro.dice.Odds`."""
    return {int(k): p for k, p in d.items()}


def sorted_ints(d: Mapping[int | str, Fraction]) -> dict[int | str, Fraction]:
    """``d`` sorted by its (integer) keys."""
    return dict(sorted(d.items(), key=lambda kv: int(kv[0])))
