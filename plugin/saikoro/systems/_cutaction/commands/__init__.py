"""The system's commands: rolls with BCDice-style text, and their exact odds.

Each function takes the normalised upper-case command (and the dice) and the settings in
force (:class:`~saikoro.systems._cutaction.rulings.Settings`), and returns ``None`` when the
text is not one of the system's commands. The command families are in topic modules:
:mod:`.checks` (``CA CAI CAR CAM CAC CAO``), :mod:`.damage` (``CAD CAA``) and :mod:`.chase`
(``CET CFO``); :mod:`.common` has what they share.

>>> from saikoro.dice import DiceSource
>>> from saikoro.systems._cutaction.rulings import Settings
>>> roll_command("CA7>=3", DiceSource(dice=[(10, 3)]), Settings()).text
'(CA7>=3) ＞ 3 ＞ 達成値4 ＞ 成功'
>>> odds_command("CA7", Settings()).success
Fraction(7, 10)
>>> odds_command("2D6", Settings()) is None
True
"""

from __future__ import annotations

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._cutaction.rulings import Settings

from .chase import EVENT_COMMANDS, odds_event, roll_event
from .checks import (
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
from .damage import ATTACK, DAMAGE, odds_attack, odds_damage, roll_attack, roll_damage

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


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll one of the system's commands, or ``None`` when ``command`` is not one."""
    if command in EVENT_COMMANDS:
        return roll_event(command, source, settings)
    for pattern, roll in _ROLLS:
        if m := pattern.fullmatch(command):
            return roll(command, m, source, settings)
    return None


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of one of the system's commands, or ``None`` when it is not one."""
    if command in EVENT_COMMANDS:
        return odds_event(command, settings)
    for pattern, odds in _ODDS:
        if m := pattern.fullmatch(command):
            return odds(command, m, settings)
    return None
