"""The 穢れ game's dice commands: parsing, rolling and exact odds.

- ``KGA7VS5D8``: attack value 7 against defence value 5, skill damage 8. Each side may
  add ``±n`` modifiers and options: ``@F``/``@M``/``@N`` (or ``@遠``/``@中``/``@近``)
  position, ``K9`` 穢れ, ``W4`` 脱力 with level 4 (attacker), ``J4`` 自失 with level 4
  (defender), ``G3`` a defence skill cutting 3 damage (defender). After the sides:
  ``R`` for a ranged attack and ``>=N`` for "N damage or more". ``KGA7`` alone is the
  attack check only.
- ``KGA7VS5,3@F,4D8``: a 全体攻撃, one attack roll against each target's own defence
  (targets separated by commas, each with its own options).
- ``KGR`` recovery check (再起判定): ``C`` curse, ``K4`` 穢れ, ``H-3`` current HP.
- ``KGS2`` status-recovery check with 2 statuses (``K5`` 穢れ, ``±n``).
- ``KGP3`` poison damage at level 3.

>>> from saikoro.dice import DiceSource
>>> s = DiceSource(dice=[(6, 4), (6, 5), (6, 3), (6, 4)])
>>> roll_command("KGA7VS5D8", s, Settings()).text
'(KGA7VS5D8) ＞ 攻撃 9[4,5]+7=16 ／ 防御 7[3,4]+5=12 ＞ 命中 ＞ ダメージ12'
"""

from __future__ import annotations

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._kegare.rulings import Settings

from .attack import ATTACK, MAX_TARGETS, odds_attack, roll_attack
from .status import odds_status, roll_status

__all__ = ["MAX_TARGETS", "odds_command", "roll_command"]


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll one of the commands, or return ``None`` when ``command`` is not one."""
    if m := ATTACK.fullmatch(command):
        return roll_attack(command, m, source, settings)
    return roll_status(command, source, settings)


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of one of the commands, or ``None`` when ``command`` is not one."""
    if m := ATTACK.fullmatch(command):
        return odds_attack(command, m, settings)
    return odds_status(command, settings)
