"""Battle resources (AP, ST, OP), costs, round-start recovery and initiative.

Every character has AP (action points: who acts next, and the price of actions),
ST (stamina: melee attacks and movement) and OP (oracle points: shooting). At the start
of each round AP and ST refill by their maximum (never above it; an AP penalty lowers
the AP refilled). The character with the most AP takes the next turn, until every
character is at 0 AP.

>>> a = Combatant("アリサ", max_ap=8, max_st=3).round_start()
>>> a.ap, a.st
(8, 3)
>>> a.pay(attack_cost(Weapon.LONG)).ap
5
>>> a.wait().ap
4
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace

from saikoro.systems._base import OptionError, RulesError

__all__ = [
    "AP_TIE_RULES",
    "COVER_COST",
    "GUARD_COST",
    "STEP_COST",
    "Combatant",
    "Condition",
    "Cost",
    "CostError",
    "Shield",
    "Weapon",
    "attack_cost",
    "full_move_cost",
    "initiative_order",
    "next_actor",
]

AP_TIE_RULES = ("max_ap", "pc_first", "enemy_first")
"""How equal AP is ordered (see the ruling ``getb.ap_tie``)."""


class CostError(RulesError):
    """A character cannot pay a cost."""


@dataclass(frozen=True)
class Cost:
    """A price in ST, AP and OP."""

    st: int = 0
    ap: int = 0
    op: int = 0


class Weapon(enum.Enum):
    """Attack methods with a fixed cost and number of damage-check dice."""

    SHORT = "ショートブレード"
    """Short blade: melee, ST1 AP2, 2 dice, strength."""
    LONG = "ロングブレード"
    """Long blade: melee, ST1 AP3, 3 dice, strength."""
    BUSTER = "バスターブレード"
    """Buster blade: melee, ST1 AP4, 4 dice, strength."""
    SHOOTING = "射撃"
    """Gun form: OP1 AP1, 1 die plus the bullet's bonus, intelligence."""

    @property
    def melee(self) -> bool:
        """Whether the weapon attacks in melee (and so recovers OP)."""
        return self is not Weapon.SHOOTING

    @property
    def dice(self) -> int:
        """Base number of damage-check dice (a bullet adds to the gun's 1).

        >>> [w.dice for w in Weapon]
        [2, 3, 4, 1]
        """
        return {Weapon.SHORT: 2, Weapon.LONG: 3, Weapon.BUSTER: 4, Weapon.SHOOTING: 1}[self]

    @property
    def reach(self) -> tuple[int, int] | None:
        """The weapon's range in cells (``None``: set by the bullet).

        >>> Weapon.LONG.reach, Weapon.SHOOTING.reach
        ((0, 1), None)
        """
        return None if self is Weapon.SHOOTING else (0, 1)

    @property
    def code(self) -> str:
        """The letter used in commands (``GDL+7``).

        >>> Weapon.BUSTER.code
        'B'
        """
        return {Weapon.SHORT: "S", Weapon.LONG: "L", Weapon.BUSTER: "B", Weapon.SHOOTING: "G"}[self]


class Condition(enum.Enum):
    """Conditions the battle rules refer to."""

    FLYING = "飛行"
    """Gained by a jump (side action) for the rest of the turn."""
    DONE = "行動終了"
    """The character attacked this turn; its turn ends."""
    INCAPACITATED = "戦闘不能"
    """Out of the fight until an ally's link aid."""


class Shield(enum.Enum):
    """Shield types and their number of guard-check dice."""

    BUCKLER = "バックラー"
    """Buckler: 2 dice."""
    SHIELD = "シールド"
    """Shield: 3 dice."""
    TOWER = "タワー"
    """Tower shield: 4 dice."""

    @property
    def dice(self) -> int:
        """Number of guard-check dice.

        >>> [s.dice for s in Shield]
        [2, 3, 4]
        """
        return {Shield.BUCKLER: 2, Shield.SHIELD: 3, Shield.TOWER: 4}[self]

    @property
    def code(self) -> str:
        """The letter used in commands (``GGT+5``)."""
        return {Shield.BUCKLER: "B", Shield.SHIELD: "S", Shield.TOWER: "T"}[self]


STEP_COST = Cost(st=1)
"""〈ステップ〉 (a response): move one cell."""
GUARD_COST = Cost(st=1)
"""〈ガード〉 (a response): guard check after the damage check."""
COVER_COST = Cost(st=1)
"""〈カバーリング〉 (a response): guard in place of an ally who did nothing."""


def attack_cost(weapon: Weapon) -> Cost:
    """The cost of attacking with ``weapon``.

    >>> attack_cost(Weapon.SHORT), attack_cost(Weapon.SHOOTING)
    (Cost(st=1, ap=2, op=0), Cost(st=0, ap=1, op=1))
    """
    if weapon is Weapon.SHOOTING:
        return Cost(op=1, ap=1)
    return Cost(st=1, ap={Weapon.SHORT: 2, Weapon.LONG: 3, Weapon.BUSTER: 4}[weapon])


def full_move_cost(cells: int) -> Cost:
    """〈全力移動〉: ST1 and one AP per cell moved.

    >>> full_move_cost(3)
    Cost(st=1, ap=3, op=0)
    """
    if cells < 1:
        raise CostError("全力移動は1セル以上です")
    return Cost(st=1, ap=cells)


@dataclass(frozen=True)
class Combatant:
    """One character's battle resources.

    Attributes:
        name: display name.
        max_ap / max_st: maxima (refilled at round start).
        ap / st / op: current values.
        ap_penalty: lowers the AP refilled at round start.
        pc: a player character (PCs never enter the centre cell).
        hp: current HP (final damage is taken from it).
        conditions: the :class:`Condition` values in force.
    """

    name: str
    max_ap: int
    max_st: int
    ap: int = 0
    st: int = 0
    op: int = 0
    ap_penalty: int = 0
    pc: bool = True
    hp: int = 0
    conditions: frozenset[Condition] = frozenset()

    def round_start(self) -> Combatant:
        """Refill AP and ST by their maxima, capped (the AP penalty lowers the AP refill).

        >>> Combatant("x", 8, 3, ap=1, ap_penalty=3).round_start().ap
        6
        """
        ap = min(self.max_ap, self.ap + max(0, self.max_ap - self.ap_penalty))
        st = min(self.max_st, self.st + self.max_st)
        return replace(self, ap=max(self.ap, ap), st=max(self.st, st))

    def can_pay(self, cost: Cost, *, allow_ap_shortfall: bool = False) -> bool:
        """Whether ``cost`` can be paid (with ``allow_ap_shortfall``: any AP left suffices).

        >>> c = Combatant("x", 8, 3, ap=2, st=1)
        >>> long = attack_cost(Weapon.LONG)
        >>> c.can_pay(long), c.can_pay(long, allow_ap_shortfall=True)
        (False, True)
        """
        if self.st < cost.st or self.op < cost.op:
            return False
        if allow_ap_shortfall:
            return self.ap >= 1 or cost.ap == 0
        return self.ap >= cost.ap

    def pay(self, cost: Cost, *, allow_ap_shortfall: bool = False) -> Combatant:
        """Pay ``cost``; raise :class:`CostError` if it cannot be paid."""
        if not self.can_pay(cost, allow_ap_shortfall=allow_ap_shortfall):
            raise CostError(f"{self.name}: コストを支払えません ({cost})")
        return replace(
            self, st=self.st - cost.st, op=self.op - cost.op, ap=max(0, self.ap - cost.ap)
        )

    def wait(self) -> Combatant:
        """待機: halve AP (rounded down) and end the turn."""
        return replace(self, ap=self.ap // 2)

    def give_up(self) -> Combatant:
        """行動放棄: AP to 0, end the turn."""
        return replace(self, ap=0)

    def recover_op(self, amount: int) -> Combatant:
        """Add ``amount`` OP (melee damage recovers OP)."""
        return replace(self, op=self.op + amount)

    def take_damage(self, damage: int) -> Combatant:
        """Subtract a final damage from HP (0 or less changes nothing).

        >>> Combatant("x", 8, 3, hp=20).take_damage(7).hp
        13
        """
        return replace(self, hp=self.hp - max(0, damage))

    def with_condition(self, condition: Condition, present: bool = True) -> Combatant:
        """Add (or with ``present=False`` remove) a condition.

        >>> c = Combatant("x", 8, 3).with_condition(Condition.FLYING)
        >>> Condition.FLYING in c.conditions
        True
        """
        conditions = (self.conditions | {condition}) if present else (self.conditions - {condition})
        return replace(self, conditions=frozenset(conditions))


def _tie_key(c: Combatant, rule: str) -> tuple[int, ...]:
    if rule == "max_ap":
        return (-c.max_ap, 0 if c.pc else 1)
    if rule == "pc_first":
        return (0 if c.pc else 1, -c.max_ap)
    if rule == "enemy_first":
        return (1 if c.pc else 0, -c.max_ap)
    raise OptionError(f"unknown AP tie rule {rule!r}")


def initiative_order(combatants: Iterable[Combatant], *, tie: str = "max_ap") -> list[Combatant]:
    """Characters with AP left, most AP first; ties by ``tie`` then by the given order.

    >>> cs = [Combatant("敵", 6, 3, ap=6, pc=False), Combatant("PC", 7, 3, ap=6)]
    >>> [c.name for c in initiative_order(cs)]
    ['PC', '敵']
    >>> [c.name for c in initiative_order(cs, tie="enemy_first")]
    ['敵', 'PC']
    """
    alive = [(i, c) for i, c in enumerate(combatants) if c.ap > 0]
    alive.sort(key=lambda ic: (-ic[1].ap, *_tie_key(ic[1], tie), ic[0]))
    return [c for _, c in alive]


def next_actor(combatants: Iterable[Combatant], *, tie: str = "max_ap") -> Combatant | None:
    """Who takes the next turn (``None`` when everyone is at 0 AP: the round ends).

    >>> next_actor([Combatant("a", 5, 1, ap=0)]) is None
    True
    """
    order = initiative_order(combatants, tie=tie)
    return order[0] if order else None
