"""Attack against defence in the 穢れ game: modifiers, special results, exact damage.

The attack check is 2D6 + attack value, the defence check 2D6 + defence value; the
damage of the attack skill moves up or down by the difference. A natural 12 on the
attack is a critical (no defence roll, +12 damage), a natural 2 a fumble (nothing
happens). A difference of 10 or more is 粉砕 (defence skills are cancelled) or 回避
(damage and effects cancelled); equal values are 完全防御 (no damage, effects apply).

>>> spec = AttackSpec(attack=5, defence=3, damage=10)
>>> resolve(spec, 7, 8).outcome is Outcome.HIT
True
>>> resolve(spec, 7, 8).damage
11
>>> odds = attack_odds(spec)
>>> odds.outcomes.probability(Outcome.CRITICAL.value)
Fraction(1, 36)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from saikoro.dice import Dist
from saikoro.systems._base import RulesError

__all__ = [
    "MAX_KEGARE",
    "TWO_D6",
    "AttackOdds",
    "AttackSpec",
    "Outcome",
    "Position",
    "Resolution",
    "attack_odds",
    "attack_table",
    "check_penalty",
    "effective_value",
    "needs_defence_roll",
    "position_penalty",
    "resolve",
]

TWO_D6: Dist[int] = Dist.die(6).sum_of(2)
"""The 2D6 of every attack and defence check."""

MAX_KEGARE = 10
"""From this 穢れ on, a character is incapacitated for good (no action, no effects taken)."""


class Position(enum.Enum):
    """How far a character stands from the enemy."""

    NEAR = "near"
    """近距離: no modifier."""
    MID = "mid"
    """中距離: -2 to attacks made by and against the character."""
    FAR = "far"
    """遠距離: -4 to attacks made by and against the character."""

    @property
    def penalty(self) -> int:
        """The modifier this position gives to attack checks (0, -2 or -4)."""
        return {"near": 0, "mid": -2, "far": -4}[self.value]

    @property
    def label(self) -> str:
        """The Japanese name (近距離, 中距離, 遠距離)."""
        return {"near": "近距離", "mid": "中距離", "far": "遠距離"}[self.value]

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``near``/``N``/``近``/``近距離`` (and the same for mid and far).

        >>> Position.parse("遠"), Position.parse("m")
        (<Position.FAR: 'far'>, <Position.MID: 'mid'>)
        """
        key = text.strip().lower()
        for p in cls:
            if key in {p.value, p.value[0], p.label, p.label[0]}:
                return p
        raise RulesError(f"unknown position {text!r}")


class Outcome(enum.Enum):
    """The result of one attack; the value is the word saikoro prints."""

    CRITICAL = "クリティカル"
    """Natural 12 on the attack: no defence roll, damage +12."""
    FUMBLE = "ファンブル"
    """Natural 2 on the attack: no defence roll, damage and effects cancelled."""
    SHATTER = "粉砕"
    """Attack beats defence by 10 or more: damage up by the difference, defence skills cancelled."""
    HIT = "命中"
    """Attack beats defence by 1 to 9: damage up by the difference."""
    PERFECT = "完全防御"
    """Equal values: no damage, the skill's other effects still apply."""
    REDUCED = "軽減"
    """Defence beats attack by 1 to 9: damage down by the difference."""
    EVADE = "回避"
    """Defence beats attack by 10 or more: damage and effects cancelled."""
    UNABLE = "行動不能"
    """The attacker is at 穢れ 10 or more: incapacitated for good, it cannot attack."""
    UNAFFECTED = "効果なし"
    """The target is at 穢れ 10 or more: incapacitated, it takes no skill's effects."""

    @property
    def effects_land(self) -> bool:
        """Whether the attack skill's effects other than damage (statuses...) can land:
        not on a fumble, an evasion, or an attack that never happened or met no one.
        (完全防御 stops only the damage; a target the hit downs takes none either, which
        is the simulator's business: :attr:`Outcome` knows nothing of HP.)

        >>> Outcome.PERFECT.effects_land, Outcome.EVADE.effects_land
        (True, False)
        """
        return self not in (Outcome.FUMBLE, Outcome.EVADE, Outcome.UNABLE, Outcome.UNAFFECTED)


@dataclass(frozen=True)
class AttackSpec:
    """Everything one attack needs.

    Attributes:
        attack: the attacker's attack value (halved, rounded down, at 穢れ 9+).
        defence: the defender's defence value (halved likewise).
        damage: the attack skill's damage before the difference is applied.
        attack_modifier / defence_modifier: other modifiers to the checks.
        attacker_position / target_position: positions (``None``: the character has none,
            as enemies usually do).
        ranged: a 遠距離攻撃, which ignores positions.
        weakened_level: the attacker's level when it suffers 脱力 (0 when it does not).
        dazed_level: the defender's level when it suffers 自失 (0 when it does not).
        attacker_kegare / defender_kegare: 穢れ of each side (5+: -1 to checks, 9+: halved).
        guard: damage cut by a defence skill (cancelled by 粉砕).
        min_damage: the lowest damage a damaging result deals (ruling ``min_damage``).
        position_stack: ``max`` (the worse) or ``sum`` of the two position penalties (ruling).
        critical_guard: ``nullify`` or ``apply`` a defence skill on a critical (ruling).
    """

    attack: int
    defence: int = 0
    damage: int = 0
    attack_modifier: int = 0
    defence_modifier: int = 0
    attacker_position: Position | None = None
    target_position: Position | None = None
    ranged: bool = False
    weakened_level: int = 0
    dazed_level: int = 0
    attacker_kegare: int = 0
    defender_kegare: int = 0
    guard: int = 0
    min_damage: int = 0
    position_stack: str = "max"
    critical_guard: str = "nullify"

    @property
    def attack_bonus(self) -> int:
        """What is added to the attack's 2D6.

        >>> AttackSpec(attack=9, attacker_kegare=9, attacker_position=Position.MID).attack_bonus
        1
        """
        return (
            effective_value(self.attack, self.attacker_kegare)
            + self.attack_modifier
            + position_penalty(
                self.attacker_position,
                self.target_position,
                ranged=self.ranged,
                stack=self.position_stack,
            )
            - self.weakened_level // 2
            + check_penalty(self.attacker_kegare)
        )

    @property
    def defence_bonus(self) -> int:
        """What is added to the defence's 2D6.

        >>> AttackSpec(attack=0, defence=6, dazed_level=5, defender_kegare=5).defence_bonus
        3
        """
        return (
            effective_value(self.defence, self.defender_kegare)
            + self.defence_modifier
            - self.dazed_level // 2
            + check_penalty(self.defender_kegare)
        )


def effective_value(value: int, kegare: int) -> int:
    """An attack or defence value after 穢れ: halved, rounded down, from 9 on.

    >>> effective_value(7, 8), effective_value(7, 9)
    (7, 3)
    """
    return value // 2 if kegare >= 9 else value


def check_penalty(kegare: int) -> int:
    """The modifier 穢れ gives to every check: -1 from 5 on.

    >>> check_penalty(4), check_penalty(5)
    (0, -1)
    """
    return -1 if kegare >= 5 else 0


def position_penalty(
    attacker: Position | None,
    target: Position | None,
    *,
    ranged: bool = False,
    stack: str = "max",
) -> int:
    """The positions' modifier to an attack check.

    A position is one distance between a character and the enemy, so by default only the
    worse of the two counts (``stack="max"``, ruling ``position_stack``); ``"sum"`` adds the
    attacker's and the target's. Ranged attacks ignore both.

    >>> position_penalty(Position.FAR, Position.MID)
    -4
    >>> position_penalty(Position.FAR, Position.MID, stack="sum")
    -6
    >>> position_penalty(Position.FAR, None, ranged=True)
    0
    """
    if ranged:
        return 0
    a = attacker.penalty if attacker else 0
    t = target.penalty if target else 0
    return min(a, t) if stack == "max" else a + t


@dataclass(frozen=True)
class Resolution:
    """One resolved attack.

    Attributes:
        outcome: the :class:`Outcome`.
        damage: damage dealt (0 when cancelled).
        attack_total: the attack check's value.
        defence_total: the defence check's value (``None`` without a defence roll).
    """

    outcome: Outcome
    damage: int
    attack_total: int
    defence_total: int | None

    @property
    def difference(self) -> int | None:
        """Attack minus defence, when there was a defence roll."""
        return None if self.defence_total is None else self.attack_total - self.defence_total


def needs_defence_roll(spec: AttackSpec, attack_dice: int) -> bool:
    """Whether the target rolls its defence: not on a natural 2 or 12, not at 穢れ 10+.

    >>> needs_defence_roll(AttackSpec(attack=5), 7), needs_defence_roll(AttackSpec(attack=5), 12)
    (True, False)
    >>> needs_defence_roll(AttackSpec(attack=5, defender_kegare=10), 7)
    False
    """
    return (
        attack_dice not in (2, 12)
        and spec.attacker_kegare < MAX_KEGARE
        and spec.defender_kegare < MAX_KEGARE
    )


def resolve(spec: AttackSpec, attack_dice: int, defence_dice: int | None) -> Resolution:
    """Resolve an attack from the two 2D6 sums (``defence_dice`` unused without a defence roll).

    A character at 穢れ 10 or more is incapacitated for good: as the attacker it cannot
    act (行動不能), as the target it takes no skill's effects (効果なし).

    >>> spec = AttackSpec(attack=5, defence=3, damage=10, guard=2)
    >>> r = resolve(spec, 12, None)
    >>> r.outcome, r.damage, r.attack_total, r.defence_total
    (<Outcome.CRITICAL: 'クリティカル'>, 22, 17, None)
    >>> resolve(spec, 11, 2).outcome, resolve(spec, 11, 2).damage
    (<Outcome.SHATTER: '粉砕'>, 21)
    >>> resolve(spec, 3, 12).outcome, resolve(spec, 5, 7).outcome
    (<Outcome.REDUCED: '軽減'>, <Outcome.PERFECT: '完全防御'>)
    >>> resolve(AttackSpec(attack=0, defence=5), 3, 12).outcome
    <Outcome.EVADE: '回避'>
    """
    a = attack_dice + spec.attack_bonus
    if spec.attacker_kegare >= MAX_KEGARE:
        return Resolution(Outcome.UNABLE, 0, a, None)
    if attack_dice == 2:
        return Resolution(Outcome.FUMBLE, 0, a, None)
    if spec.defender_kegare >= MAX_KEGARE:
        return Resolution(Outcome.UNAFFECTED, 0, a, None)
    if attack_dice == 12:
        guard = spec.guard if spec.critical_guard == "apply" else 0
        return Resolution(Outcome.CRITICAL, max(spec.min_damage, spec.damage + 12 - guard), a, None)
    if defence_dice is None:
        raise RulesError("a defence roll is needed unless the attack is a critical or fumble")
    d = defence_dice + spec.defence_bonus
    diff = a - d
    if diff == 0:
        return Resolution(Outcome.PERFECT, 0, a, d)
    if diff <= -10:
        return Resolution(Outcome.EVADE, 0, a, d)
    if diff >= 10:
        return Resolution(Outcome.SHATTER, max(spec.min_damage, spec.damage + diff), a, d)
    outcome = Outcome.HIT if diff > 0 else Outcome.REDUCED
    return Resolution(outcome, max(spec.min_damage, spec.damage + diff - spec.guard), a, d)


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of one attack.

    Attributes:
        damage: distribution of the damage dealt.
        outcomes: distribution of the :class:`Outcome` words.
        success: probability that the attack beat the defence (critical included).
    """

    damage: Dist[int]
    outcomes: Dist[str]
    success: Fraction


def attack_odds(spec: AttackSpec) -> AttackOdds:
    """Exact damage and outcome distributions of ``spec`` (36 x 36 cases).

    >>> o = attack_odds(AttackSpec(attack=0, defence=0))
    >>> o.outcomes.probability("完全防御") + o.outcomes.probability("回避") < 1
    True
    """
    denominator = 36 * 36
    damage: dict[int, int] = {}
    outcomes: dict[str, int] = {}
    wins = 0
    for a, wa in TWO_D6.items():
        rolls = list(TWO_D6.items()) if needs_defence_roll(spec, a) else [(None, 36)]
        for d, wd in rolls:
            r = resolve(spec, a, d)
            w = wa * wd
            damage[r.damage] = damage.get(r.damage, 0) + w
            outcomes[r.outcome.value] = outcomes.get(r.outcome.value, 0) + w
            if r.outcome in (Outcome.CRITICAL, Outcome.SHATTER, Outcome.HIT):
                wins += w
    return AttackOdds(
        Dist(damage, denominator), Dist(outcomes, denominator), Fraction(wins, denominator)
    )


def attack_table(spec: AttackSpec, defences: Iterable[int]) -> dict[int, AttackOdds]:
    """Odds of the same attack against each of several defence values.

    Handy for an enemy's stat block: one row per PC defence value.

    >>> table = attack_table(AttackSpec(attack=7, damage=8), range(3, 6))
    >>> list(table), table[5].success
    ([3, 4, 5], Fraction(143, 216))
    """
    return {d: attack_odds(replace(spec, defence=d)) for d in defences}
