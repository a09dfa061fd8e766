"""The system's commands: rolls with BCDice-style text, and their exact odds.

Each function takes the options in force (ruling option name -> value) and the normalised
upper-case command, and returns ``None`` when the text is not one of the system's commands.

>>> from saikoro.dice import DiceSource
>>> from .rulings import OPTION_DEFAULTS as O
>>> roll_command(O, "CA7>=3", DiceSource(dice=[(10, 3)])).text
'(CA7>=3) ＞ 3 ＞ 達成値4 ＞ 成功'
>>> odds_command(O, "CA7").success
Fraction(7, 10)
>>> odds_command(O, "2D6") is None
True
"""

from __future__ import annotations

from saikoro.dice import DiceSource, Odds, Roll

from .cmd_chase import EVENT_COMMANDS, odds_event, roll_event
from .cmd_checks import (
    CHECK,
    CONTEST,
    INITIATIVE,
    odds_check,
    odds_contest,
    odds_initiative,
    roll_check,
    roll_contest,
    roll_initiative,
)
from .cmd_common import Options
from .cmd_damage import ATTACK, DAMAGE, odds_attack, odds_damage, roll_attack, roll_damage

__all__ = ["odds_command", "roll_command"]

_ROLLS = (
    (DAMAGE, roll_damage),
    (ATTACK, roll_attack),
    (CONTEST, roll_contest),
    (INITIATIVE, roll_initiative),
    (CHECK, roll_check),
)
_ODDS = (
    (DAMAGE, odds_damage),
    (ATTACK, odds_attack),
    (CONTEST, odds_contest),
    (INITIATIVE, odds_initiative),
    (CHECK, odds_check),
)


def roll_command(options: Options, command: str, source: DiceSource) -> Roll | None:
    """Roll one of the system's commands, or ``None`` when ``command`` is not one."""
    if command in EVENT_COMMANDS:
        return roll_event(options, command, source)
    for pattern, roll in _ROLLS:
        if m := pattern.fullmatch(command):
            return roll(options, m, command, source)
    return None


def odds_command(options: Options, command: str) -> Odds | None:
    """Exact odds of one of the system's commands, or ``None`` when it is not one."""
    if command in EVENT_COMMANDS:
        return odds_event(options, command)
    for pattern, odds in _ODDS:
        if m := pattern.fullmatch(command):
            return odds(options, m, command)
    return None
