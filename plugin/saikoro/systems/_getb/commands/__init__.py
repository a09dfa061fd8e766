"""GETB commands: parsing, rolling (BCDice-style text) and exact odds.

The command families are in topic modules: :mod:`.checks` (``GB``, ``GC``) and
:mod:`.damage` (``GD``, ``GG``, ``GF``); :mod:`.common` has the patterns they share.

Commands (upper-case, as the engine normalises them):

* ``GB3>=8`` — a check, 1D10 + 3 against 8 (``@9`` critical value, ``#2`` fumble value).
  A plain ``1D10+3>=8`` is the same check while the system is selected.
* ``GDL+7`` — a damage check: ``S``/``L``/``B`` blades (2/3/4 dice), ``G`` gun (1 die),
  a number of dice, or ``(L+1)``/``(G+2)`` for adjusted dice; then the fixed part.
* ``GGT+5`` — a guard check: ``B``/``S``/``T`` (buckler/shield/tower: 2/3/4 dice).
* ``GFL+7/T+5/+2`` — a whole attack: damage check / guard check (empty or ``-``: no
  guard) / final-damage modifier.
* ``GC3/2`` — a contest (対決): attacker's ability / defender's ability.

>>> from saikoro.dice import DiceSource
>>> roll_command("GB3>=8", DiceSource(dice=[(10, 7)]), Settings()).text
'(GB3>=8) ＞ 7[7]+3 ＞ 10 ＞ 成功'
>>> roll_command("GDL+7", DiceSource(dice=[(10, 5), (10, 10), (10, 1), (10, 2)]), Settings()).text
'(GDL+7) ＞ 5,11[10,1],2+7 ＞ 25 ＞ クリティカル'
>>> roll_command("2D6", DiceSource(dice=[]), Settings()) is None
True
"""

from __future__ import annotations

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._getb.rulings import Settings

from .checks import odds_check, odds_contest, roll_check, roll_contest
from .damage import odds_damage, roll_damage, roll_final, roll_guard

__all__ = ["odds_command", "roll_command"]

_ROLLS = (roll_check, roll_damage, roll_guard, roll_final, roll_contest)
_ODDS = (odds_check, odds_damage, odds_contest)


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll a GETB command, or return ``None`` when ``command`` is not one."""
    for f in _ROLLS:
        result = f(command, source, settings)
        if result is not None:
            return result
    return None


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of a GETB command, or ``None`` when ``command`` is not one.

    >>> odds_command("1D10+3>=8", Settings()).success
    Fraction(3, 5)
    >>> odds_command("GFL+7/T+5", Settings()).label
    '最終ダメージ'
    """
    for f in _ODDS:
        found = f(command, settings)
        if found is not None:
            return found
    return None
