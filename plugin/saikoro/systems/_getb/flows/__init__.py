"""GETB procedures as data: battle, round, turn, attack, damage/guard checks, check, contest.

>>> sorted(FLOWS)[:3]
['getb.attack', 'getb.battle', 'getb.check']
>>> all(f.validate() is None for f in FLOWS.values())
True
"""

from __future__ import annotations

from saikoro.systems._flow import Flow

from .attack import ATTACK, DAMAGE_CHECK, GUARD_CHECK
from .battle import BATTLE, ROUND, TURN
from .checks import CHECK, CONTEST

__all__ = ["FLOWS"]

FLOWS: dict[str, Flow] = {
    f.id: f for f in (BATTLE, ROUND, TURN, ATTACK, DAMAGE_CHECK, GUARD_CHECK, CHECK, CONTEST)
}
"""Every GETB flow by id."""
