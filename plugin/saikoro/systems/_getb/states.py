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
    "GUARD_WEAPON_RULES",
    "LINK_AID_COST",
    "LINK_AID_RULES",
    "SHIELDS",
    "SKILL_ATTACK_COST",
    "STEP_COST",
    "WEAPONS",
    "Combatant",
    "Condition",
    "Cost",
    "CostError",
    "Shield",
    "Weapon",
    "ap_after",
    "attack_cost",
    "can_guard",
    "can_pay",
    "full_move_cost",
    "gain_op",
    "initiative_order",
    "link_aid_hp",
    "next_actor",
    "recovered",
    "tie_key",
    "waited",
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


WEAPONS = {
    "short-blade": Weapon.SHORT,
    "long-blade": Weapon.LONG,
    "buster-blade": Weapon.BUSTER,
    "shooting": Weapon.SHOOTING,
}
"""Scenario weapon values -> the system's attack methods (``skill`` has none)."""
SHIELDS = {"buckler": Shield.BUCKLER, "shield": Shield.SHIELD, "tower": Shield.TOWER}
"""Scenario shield values -> the shields."""

STEP_COST = Cost(st=1)
"""〈ステップ〉 (a response): move one cell."""
GUARD_COST = Cost(st=1)
"""〈ガード〉 (a response): guard check after the damage check (ruling ``getb.guard``)."""
COVER_COST = Cost(st=1)
"""〈カバーリング〉 (a response): guard in place of an ally who did nothing."""
SKILL_ATTACK_COST = Cost(st=1, ap=3)
"""A skill attack whose cost the scenario does not give (ruling ``getb.skill_attack``)."""
LINK_AID_COST = Cost(st=1, ap=2)
"""〈リンクエイド〉 (a main action) on a downed ally in the same cell (ruling ``getb.link_aid``)."""
LINK_AID_RULES = ("transfer", "one", "half")
"""What a rescued ally stands up with (the options of ruling ``getb.link_aid``)."""
GUARD_WEAPON_RULES = ("melee", "any")
"""Which weapon lets a character guard (the options of ruling ``getb.guard``)."""


def recovered(value: int, maximum: int, penalty: int = 0) -> int:
    """AP or ST after the round start: ``maximum`` more (less ``penalty``), never above it.

    Never below what it was either (an AP penalty larger than the maximum recovers nothing).

    >>> recovered(0, 8), recovered(2, 8), recovered(1, 8, penalty=3), recovered(9, 8)
    (8, 8, 6, 9)
    """
    return max(value, min(maximum, value + max(0, maximum - penalty)))


def can_pay(st: int, op: int, ap: int, cost: Cost, *, allow_ap_shortfall: bool = False) -> bool:
    """Whether ST ``st``, OP ``op`` and AP ``ap`` pay ``cost`` (ruling ``getb.ap_shortfall``:
    with ``allow_ap_shortfall`` any AP left pays the AP part; ST and OP are always paid in full).

    >>> long = attack_cost(Weapon.LONG)
    >>> can_pay(1, 0, 2, long), can_pay(1, 0, 2, long, allow_ap_shortfall=True)
    (False, True)
    """
    if st < cost.st or op < cost.op:
        return False
    if allow_ap_shortfall:
        return ap >= 1 or cost.ap == 0
    return ap >= cost.ap


def ap_after(ap: int, cost_ap: int) -> int:
    """AP left after paying ``cost_ap`` AP (0 when it was short: ruling ``getb.ap_shortfall``).

    >>> ap_after(7, 3), ap_after(2, 4)
    (4, 0)
    """
    return max(0, ap - cost_ap)


def waited(ap: int) -> int:
    """AP after 〈待機〉: half, rounded down (ruling ``getb.wait_rounding``).

    >>> waited(7), waited(1)
    (3, 0)
    """
    return ap // 2


def can_guard(st: int, melee_equipped: bool, *, weapon_rule: str = "melee") -> bool:
    """Whether a character may 〈ガード〉 (or 〈カバーリング〉, a guard for an ally).

    It pays :data:`GUARD_COST` and, under ruling ``getb.guard`` (``melee``, the seed's
    condition), needs a melee weapon equipped; ``any`` lets the gun form guard too.

    >>> can_guard(1, True), can_guard(0, True), can_guard(1, False)
    (True, False, False)
    >>> can_guard(1, False, weapon_rule="any")
    True
    """
    if weapon_rule not in GUARD_WEAPON_RULES:
        raise OptionError(f"unknown guard weapon rule {weapon_rule!r}")
    return st >= GUARD_COST.st and (melee_equipped or weapon_rule == "any")


def gain_op(op: int, amount: int, max_op: int) -> int:
    """OP after recovering ``amount`` (a melee hit), never above ``max_op`` (ruling
    ``getb.op_cap``; an OP already above it stays).

    >>> gain_op(1, 3, 3), gain_op(0, 1, 3), gain_op(5, 1, 3)
    (3, 1, 5)
    """
    return max(op, min(max_op, op + amount))


def link_aid_hp(rule: str, rescuer_hp: int, max_hp: int) -> int:
    """The HP a downed ally stands up with after a 〈リンクエイド〉 (ruling ``getb.link_aid``).

    ``transfer``: half the rescuer's HP (rounded down, at least 1), which the rescuer loses;
    ``one``: 1; ``half``: half the ally's maximum HP (rounded down, at least 1).

    >>> link_aid_hp("transfer", 9, 40), link_aid_hp("one", 9, 40), link_aid_hp("half", 9, 41)
    (4, 1, 20)
    """
    if rule == "transfer":
        return max(1, rescuer_hp // 2)
    if rule == "one":
        return 1
    if rule == "half":
        return max(1, max_hp // 2)
    raise OptionError(f"unknown link aid rule {rule!r}")


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

        A downed character (〔戦闘不能〕) recovers nothing until it is rescued (ruling
        ``getb.downed``).

        >>> Combatant("x", 8, 3, ap=1, ap_penalty=3).round_start().ap
        6
        """
        if Condition.INCAPACITATED in self.conditions:
            return self
        return replace(
            self,
            ap=recovered(self.ap, self.max_ap, self.ap_penalty),
            st=recovered(self.st, self.max_st),
        )

    def can_pay(self, cost: Cost, *, allow_ap_shortfall: bool = False) -> bool:
        """Whether ``cost`` can be paid (with ``allow_ap_shortfall``: any AP left suffices).

        >>> c = Combatant("x", 8, 3, ap=2, st=1)
        >>> long = attack_cost(Weapon.LONG)
        >>> c.can_pay(long), c.can_pay(long, allow_ap_shortfall=True)
        (False, True)
        """
        return can_pay(self.st, self.op, self.ap, cost, allow_ap_shortfall=allow_ap_shortfall)

    def pay(self, cost: Cost, *, allow_ap_shortfall: bool = False) -> Combatant:
        """Pay ``cost``; raise :class:`CostError` if it cannot be paid."""
        if not self.can_pay(cost, allow_ap_shortfall=allow_ap_shortfall):
            raise CostError(f"{self.name}: コストを支払えません ({cost})")
        return replace(
            self, st=self.st - cost.st, op=self.op - cost.op, ap=ap_after(self.ap, cost.ap)
        )

    def wait(self) -> Combatant:
        """待機: halve AP (rounded down) and end the turn."""
        return replace(self, ap=waited(self.ap))

    def give_up(self) -> Combatant:
        """行動放棄: AP to 0, end the turn."""
        return replace(self, ap=0)

    def recover_op(self, amount: int, maximum: int | None = None) -> Combatant:
        """Add ``amount`` OP (melee damage recovers OP), up to ``maximum`` when given.

        >>> Combatant("x", 8, 3, op=2).recover_op(3, 4).op
        4
        """
        if maximum is None:
            return replace(self, op=self.op + amount)
        return replace(self, op=gain_op(self.op, amount, maximum))

    def stand_up(self, hp: int) -> Combatant:
        """Rescued by a 〈リンクエイド〉: no longer 〔戦闘不能〕, at ``hp`` HP (its AP and ST
        come back at the next round start).

        >>> c = Combatant("x", 8, 3, hp=5).take_damage(9).stand_up(4)
        >>> c.hp, c.ap, Condition.INCAPACITATED in c.conditions
        (4, 0, False)
        """
        return replace(self, hp=hp, conditions=self.conditions - {Condition.INCAPACITATED})

    def take_damage(self, damage: int) -> Combatant:
        """Subtract a final damage from HP (0 or less changes nothing).

        At HP 0 or less the character is 〔戦闘不能〕: its AP goes to 0, so it takes no
        more turns, until an ally rescues it (ruling ``getb.downed``).

        >>> Combatant("x", 8, 3, hp=20).take_damage(7).hp
        13
        >>> down = Combatant("x", 8, 3, ap=5, hp=6).take_damage(7)
        >>> down.ap, Condition.INCAPACITATED in down.conditions
        (0, True)
        """
        hp = self.hp - max(0, damage)
        if hp > 0 or self.hp <= 0:
            return replace(self, hp=hp)
        return replace(self, hp=hp, ap=0, conditions=self.conditions | {Condition.INCAPACITATED})

    def with_condition(self, condition: Condition, present: bool = True) -> Combatant:
        """Add (or with ``present=False`` remove) a condition.

        >>> c = Combatant("x", 8, 3).with_condition(Condition.FLYING)
        >>> Condition.FLYING in c.conditions
        True
        """
        conditions = (self.conditions | {condition}) if present else (self.conditions - {condition})
        return replace(self, conditions=frozenset(conditions))


def tie_key(max_ap: int, pc: bool, rule: str) -> tuple[int, int]:
    """How equal AP is ordered (ruling ``getb.ap_tie``): lower keys act first.

    >>> tie_key(8, True, "max_ap") < tie_key(7, False, "max_ap")
    True
    >>> tie_key(7, False, "enemy_first") < tie_key(9, True, "enemy_first")
    True
    """
    if rule == "max_ap":
        return (-max_ap, 0 if pc else 1)
    if rule == "pc_first":
        return (0 if pc else 1, -max_ap)
    if rule == "enemy_first":
        return (1 if pc else 0, -max_ap)
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
    alive.sort(key=lambda ic: (-ic[1].ap, *tie_key(ic[1].max_ap, ic[1].pc, tie), ic[0]))
    return [c for _, c in alive]


def next_actor(combatants: Iterable[Combatant], *, tie: str = "max_ap") -> Combatant | None:
    """Who takes the next turn (``None`` when everyone is at 0 AP: the round ends).

    >>> next_actor([Combatant("a", 5, 1, ap=0)]) is None
    True
    """
    order = initiative_order(combatants, tie=tie)
    return order[0] if order else None
