"""Damage, injury (負傷), exhaustion (消耗), the critical state (危篤) and recovery.

Physical damage lowers 体力 (HP) by the damage minus the achievement of a body resist
check; a failed resist check also gives 負傷 equal to the damage, which lowers maximum HP.
HP at 0 or below means 消耗; maximum HP at 0 or below means 危篤, and death if the scene
ends so. HP loss from special effects (HPロス) is not resisted and gives no injury.

>>> from saikoro.systems._cutaction.checks import resolve_check
>>> resolve_damage(8, resolve_check(6, 3))          # achievement 3 reduces 8 to 5
DamageResult(damage=8, hp_loss=5, injury=0, resisted=True)
>>> resolve_damage(8, resolve_check(6, 9))          # failed: full damage and injury 8
DamageResult(damage=8, hp_loss=8, injury=8, resisted=False)
>>> c = Condition(max_hp=12, hp=12).take(resolve_damage(8, resolve_check(6, 9)))
>>> c.hp, c.current_max, c.exhausted, c.critical
(4, 4, False, False)
>>> c = c.take(resolve_damage(6, resolve_check(6, 9)))
>>> c.hp, c.exhaustion, c.current_max, c.critical
(-2, 2, -2, True)
>>> c.end_scene().dead
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from saikoro.dice import Dist

from .checks import CheckResult, check_results, contest_wins
from .errors import CutActionError

__all__ = [
    "Condition",
    "DamageResult",
    "attack_hits",
    "attack_table",
    "damage_dist",
    "damage_table",
    "exhausted_at",
    "resolve_damage",
]


@dataclass(frozen=True)
class DamageResult:
    """What one hit does.

    Attributes:
        damage: the incoming damage.
        hp_loss: how much 体力 goes down.
        injury: the 負傷 gained (the damage, when the resist check failed).
        resisted: the resist check succeeded.
    """

    damage: int
    hp_loss: int
    injury: int
    resisted: bool


def resolve_damage(
    damage: int,
    resist: CheckResult | None,
    *,
    failure: str = "none",
    auto_fail: bool = False,
) -> DamageResult:
    """Apply a body resist check to ``damage``.

    Args:
        damage: incoming damage (0 or less does nothing).
        resist: the body resist check, or ``None`` for HP loss that cannot be resisted (HPロス).
        failure: ruling ``resist_failure``: ``"none"`` (a failure reduces nothing) or ``"add"``
            (a negative achievement adds to the damage).
        auto_fail: the resist check fails without a roll (exhausted character).

    >>> resolve_damage(5, None)
    DamageResult(damage=5, hp_loss=5, injury=0, resisted=False)
    >>> from saikoro.systems._cutaction.checks import resolve_check
    >>> resolve_damage(5, resolve_check(3, 7), failure="add")
    DamageResult(damage=5, hp_loss=9, injury=5, resisted=False)
    >>> resolve_damage(5, None, auto_fail=True)
    DamageResult(damage=5, hp_loss=5, injury=5, resisted=False)
    """
    if failure not in ("none", "add"):
        raise CutActionError(f"unknown resist failure rule {failure!r}")
    if damage <= 0:
        return DamageResult(damage, 0, 0, resist is not None and resist.success and not auto_fail)
    if auto_fail:
        return DamageResult(damage, damage, damage, False)
    if resist is None:
        return DamageResult(damage, damage, 0, False)
    if resist.success:
        return DamageResult(damage, max(0, damage - resist.achievement), 0, True)
    extra = -resist.achievement if failure == "add" and resist.achievement < 0 else 0
    return DamageResult(damage, damage + extra, damage, False)


def damage_table(
    damage: Dist[int] | int,
    resist_value: int | None,
    *,
    dice: str = "1D10",
    failure: str = "none",
    auto_fail: bool = False,
) -> dict[DamageResult, Fraction]:
    """Every possible :class:`DamageResult` of a hit with its exact probability.

    Args:
        damage: the damage, fixed or as a distribution (a damage roll).
        resist_value: success value of the body resist check (``None``: unresisted HP loss).
        dice, failure, auto_fail: as in :func:`resolve_damage` and the check dice option.

    >>> t = damage_table(4, 3)
    >>> sorted((r.hp_loss, r.injury, p) for r, p in t.items())[:2]
    [(2, 0, Fraction(1, 10)), (3, 0, Fraction(1, 10))]
    """
    dmg = Dist.constant(damage) if isinstance(damage, int) else damage
    if resist_value is None or auto_fail:
        checks: list[tuple[CheckResult | None, Fraction]] = [(None, Fraction(1))]
    else:
        checks = list(check_results(resist_value, dice=dice))
    table: dict[DamageResult, Fraction] = {}
    for d, pd in dmg.probabilities().items():
        for r, pr in checks:
            res = resolve_damage(d, r, failure=failure, auto_fail=auto_fail)
            table[res] = table.get(res, Fraction(0)) + pd * pr
    return table


def damage_dist(
    damage: Dist[int] | int,
    resist_value: int | None,
    *,
    dice: str = "1D10",
    failure: str = "none",
    auto_fail: bool = False,
) -> Dist[int]:
    """Exact distribution of the 体力 lost to a hit (see :func:`damage_table`).

    >>> damage_dist(8, 6).probabilities()[8]
    Fraction(1, 2)
    """
    table = damage_table(damage, resist_value, dice=dice, failure=failure, auto_fail=auto_fail)
    loss: dict[int, Fraction] = {}
    for r, p in table.items():
        loss[r.hp_loss] = loss.get(r.hp_loss, Fraction(0)) + p
    return Dist.from_fractions(loss)


def attack_hits(
    attack: CheckResult, reaction: CheckResult | None, *, rule: str = "success_needed"
) -> bool:
    """Whether an attack lands: the attack check against the target's reaction (防御/回避).

    The reaction is a contest the target makes even when it has already acted; the attacker
    must win it (ruling ``contest_rule``: by default succeed and beat the reaction's
    achievement, ties to the target). ``reaction=None``: the reaction fails without a roll
    (an exhausted target, ruling ``exhausted_resist_fails``), so a successful attack lands.

    >>> from saikoro.systems._cutaction.checks import resolve_check
    >>> attack_hits(resolve_check(7, 3), resolve_check(5, 2))    # 4 against 3
    True
    >>> attack_hits(resolve_check(7, 4), resolve_check(5, 2))    # 3 against 3: the target's
    False
    >>> attack_hits(resolve_check(7, 3), None), attack_hits(resolve_check(7, 8), None)
    (True, False)
    """
    return contest_wins(attack, [] if reaction is None else [reaction], rule=rule)


def attack_table(
    attack_value: int,
    reaction_value: int,
    damage: Dist[int] | int,
    resist_value: int | None,
    *,
    dice: str = "1D10",
    rule: str = "success_needed",
    failure: str = "none",
    auto_fail: bool = False,
) -> dict[DamageResult | None, Fraction]:
    """Every outcome of one attack with its exact probability (``None``: it does not land).

    The attack check against the reaction (:func:`attack_hits`), then on a hit the damage and
    the body resist check (:func:`damage_table`). ``auto_fail``: the target is exhausted and
    its checks fail without a roll, the reaction as the resist check (ruling
    ``exhausted_resist_fails``). What ``CAA`` computes and the simulator plays.

    >>> t = attack_table(7, 5, 8, 6)
    >>> t[None]                    # the attack does not beat the reaction
    Fraction(9, 20)
    >>> sum(p for r, p in t.items() if r is not None and r.injury)   # a hit, resist failed
    Fraction(11, 50)
    """
    reactions: list[tuple[CheckResult | None, Fraction]]
    reactions = (
        [(None, Fraction(1))] if auto_fail else list(check_results(reaction_value, dice=dice))
    )
    hit = Fraction(0)
    for a, pa in check_results(attack_value, dice=dice):
        for r, pr in reactions:
            if attack_hits(a, r, rule=rule):
                hit += pa * pr
    table: dict[DamageResult | None, Fraction] = {None: 1 - hit} if hit < 1 else {}
    if hit:
        auto = auto_fail and resist_value is not None  # HP loss is never resisted
        hits = damage_table(damage, resist_value, dice=dice, failure=failure, auto_fail=auto)
        for res, p in hits.items():
            table[res] = table.get(res, Fraction(0)) + hit * p
    return table


def exhausted_at(hp: int) -> bool:
    """Whether 体力 ``hp`` means the 消耗 state (0 or less).

    >>> exhausted_at(0), exhausted_at(1)
    (True, False)
    """
    return hp <= 0


@dataclass(frozen=True)
class Condition:
    """A character's 体力 track and damage states.

    Attributes:
        max_hp: maximum 体力 before injuries.
        hp: current 体力 (may be negative: its negative part is the 消耗 value).
        injury: 負傷 value (lowers the maximum).
        exhausted: in the 消耗 state (entered when 体力 falls to 0 or below).
        dead: 死亡.
    """

    max_hp: int
    hp: int
    injury: int = 0
    exhausted: bool = False
    dead: bool = False

    @property
    def current_max(self) -> int:
        """Maximum 体力 after injuries."""
        return self.max_hp - self.injury

    @property
    def exhaustion(self) -> int:
        """The 消耗 value (0 when not exhausted)."""
        return max(0, -self.hp) if self.exhausted else 0

    @property
    def critical(self) -> bool:
        """危篤: maximum 体力 is 0 or less (and not yet dead)."""
        return not self.dead and self.current_max <= 0

    def auto_fails(self, *, recovery: bool = False) -> bool:
        """Whether a check automatically fails (exhausted: every check but recovery; dead: all).

        >>> c = Condition(10, -1, exhausted=True)
        >>> c.auto_fails(), c.auto_fails(recovery=True)
        (True, False)
        """
        return self.dead or (self.exhausted and not recovery)

    def _settle(self, hp: int, injury: int) -> Condition:
        hp = min(hp, self.max_hp - injury)
        return replace(self, hp=hp, injury=injury, exhausted=self.exhausted or exhausted_at(hp))

    def take(self, result: DamageResult) -> Condition:
        """The condition after a hit."""
        if self.dead:
            return self
        return self._settle(self.hp - result.hp_loss, self.injury + result.injury)

    def lose_hp(self, amount: int) -> Condition:
        """The condition after unresisted HP loss (HPロス)."""
        return self.take(DamageResult(amount, max(0, amount), 0, False))

    def recover_injury(self, check: CheckResult) -> Condition:
        """A head recovery check (scene action): a success removes 負傷 equal to the achievement.

        >>> from saikoro.systems._cutaction.checks import resolve_check
        >>> Condition(10, 2, injury=8).recover_injury(resolve_check(6, 2)).injury
        4
        """
        if self.dead or not check.success:
            return self
        return replace(self, injury=max(0, self.injury - check.achievement))

    def recover_exhaustion(self, check: CheckResult) -> Condition:
        """A body recovery check: a success restores 体力 by the achievement; 消耗 ends at 0.

        >>> from saikoro.systems._cutaction.checks import resolve_check
        >>> c = Condition(10, -3, exhausted=True).recover_exhaustion(resolve_check(5, 3))
        >>> c.hp, c.exhausted
        (-1, True)
        >>> Condition(10, 0, exhausted=True).recover_exhaustion(resolve_check(5, 5)).exhausted
        False
        """
        if self.dead or not self.exhausted or not check.success:
            return self
        hp = min(self.current_max, self.hp + check.achievement)
        return replace(self, hp=hp, exhausted=hp < 0)

    def end_scene(self) -> Condition:
        """At the end of a scene an untreated 危篤 character dies."""
        return replace(self, dead=True) if self.critical else self
