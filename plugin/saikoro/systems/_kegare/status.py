"""States of the 穢れ game: statuses, recovery checks, turn order and the 穢れ track.

>>> poison(1).probabilities()
{0: Fraction(1, 3), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6), 4: Fraction(1, 6)}
>>> recovery(cursed=True).probability(0)
Fraction(1, 3)
>>> status_recovery(2)
Fraction(5, 12)
>>> kegare_effects(5)[-1]
'あらゆる判定に-1（他の修正と重なる）'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from saikoro.dice import Dist
from saikoro.systems._base import RulesError

from .checks import MAX_KEGARE, TWO_D6, check_penalty

__all__ = [
    "KEGARE_TRACK",
    "MAX_KEGARE",
    "RANDOM_STATUS_FROM",
    "Combatant",
    "KegareChange",
    "Status",
    "initiative",
    "kegare_after",
    "kegare_effects",
    "kegare_on_down",
    "out_for_good",
    "poison",
    "poison_damage",
    "random_status_due",
    "recovered",
    "recovery",
    "recovery_modifier",
    "recovery_success",
    "status_recovered",
    "status_recovery",
    "status_recovery_target",
    "turn_order",
]

RANDOM_STATUS_FROM = 6
"""From this 穢れ on, a character rolls the random status table at the start of each turn."""


class Status(enum.Enum):
    """The status effects (状態異常); the value is the Japanese name."""

    POISON = "毒"
    """Levels 1-5: (level)D6-2 damage at the end of each turn."""
    PARALYSIS = "麻痺"
    """Initiative counts as half (rounded down)."""
    WEAKNESS = "脱力"
    """Attack checks lose half the character's level (rounded down)."""
    DAZE = "自失"
    """Defence checks lose half the character's level (rounded down)."""
    CONFUSION = "混乱"
    """No defence skills."""
    CHARM = "魅了"
    """No support skills."""
    CURSE = "呪い"
    """-2 to recovery checks (再起判定)."""


def poison_damage(dice: int, *, min_damage: int = 0) -> int:
    """Poison's damage from the sum of its (level)D6: 2 less, never below ``min_damage``.

    >>> poison_damage(7), poison_damage(1), poison_damage(1, min_damage=1)
    (5, 0, 1)
    """
    return max(min_damage, dice - 2)


def poison(level: int, *, min_damage: int = 0) -> Dist[int]:
    """Damage of poison at the end of a turn: (level)D6 - 2, never below ``min_damage``.

    >>> poison(2).probability(10)
    Fraction(1, 36)
    """
    if not 1 <= level <= 5:
        raise RulesError("poison levels run from 1 to 5")
    return Dist.die(6).sum_of(level).map(lambda v: poison_damage(v, min_damage=min_damage))


def recovery_modifier(*, cursed: bool = False, kegare: int = 0, modifier: int = 0) -> int:
    """The modifier of a recovery check: curse -2, 穢れ 4+ -3, 穢れ 5+ another -1.

    >>> recovery_modifier(cursed=True, kegare=5)
    -6
    """
    return modifier - (2 if cursed else 0) - (3 if kegare >= 4 else 0) + check_penalty(kegare)


def recovered(die: int, modifier: int) -> int:
    """HP regained by a recovery check whose 1D6 shows ``die``: never below 0.

    >>> recovered(2, -3), recovered(5, -3)
    (0, 2)
    """
    return max(0, die + modifier)


def recovery(*, cursed: bool = False, kegare: int = 0, modifier: int = 0) -> Dist[int]:
    """HP regained by a recovery check (再起判定): 1D6 + modifiers, never below 0.

    >>> recovery(kegare=4).probabilities()
    {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    """
    m = recovery_modifier(cursed=cursed, kegare=kegare, modifier=modifier)
    return Dist.die(6).map(lambda v: recovered(v, m))


def recovery_success(
    hp: int, *, cursed: bool = False, kegare: int = 0, modifier: int = 0
) -> Fraction:
    """Probability that a recovery check brings HP ``hp`` (0 or less) back to 1 or more.

    At 穢れ 10 or more the character stays incapacitated whatever the roll.

    >>> recovery_success(-2), recovery_success(0, kegare=10)
    (Fraction(2, 3), Fraction(0, 1))
    """
    if out_for_good(kegare):
        return Fraction(0)
    return recovery(cursed=cursed, kegare=kegare, modifier=modifier).probability_where(
        lambda v: hp + v >= 1
    )


def status_recovery_target(statuses: int) -> int:
    """Target number of a status-recovery check: 10 - number of statuses.

    >>> status_recovery_target(3)
    7
    """
    return 10 - statuses


def status_recovered(value: int, statuses: int, *, rule: str = "at_least") -> bool:
    """Whether a status-recovery check of ``value`` (2D6 + modifiers) succeeds against
    10 - ``statuses``; ``rule`` is the ruling ``status_recovery``: ``at_least`` (default)
    or ``above`` the target.

    >>> status_recovered(9, 1), status_recovered(9, 1, rule="above")
    (True, False)
    """
    target = status_recovery_target(statuses)
    return value > target if rule == "above" else value >= target


def status_recovery(
    statuses: int, *, kegare: int = 0, modifier: int = 0, rule: str = "at_least"
) -> Fraction:
    """Probability that a status-recovery check (異常回復判定) succeeds.

    2D6 (+ modifiers, 穢れ 5+ -1) against 10 - ``statuses`` (:func:`status_recovered`).

    >>> status_recovery(1), status_recovery(1, rule="above")
    (Fraction(5, 18), Fraction(1, 6))
    """
    m = modifier + check_penalty(kegare)
    return TWO_D6.probability_where(lambda v: status_recovered(v + m, statuses, rule=rule))


def out_for_good(kegare: int) -> bool:
    """Whether 穢れ ``kegare`` incapacitates for good (10 or more: no action, no effects,
    no recovery).

    >>> out_for_good(9), out_for_good(10)
    (False, True)
    """
    return kegare >= MAX_KEGARE


def random_status_due(kegare: int) -> bool:
    """Whether a character at ``kegare`` rolls the random status table at the start of a
    turn: from 6 on, and not once out for good (who takes no effects).

    >>> random_status_due(5), random_status_due(6), random_status_due(10)
    (False, True, False)
    """
    return kegare >= RANDOM_STATUS_FROM and not out_for_good(kegare)


def initiative(
    value: int, *, paralysed: bool = False, kegare: int = 0, rounding: str = "down"
) -> int:
    """Initiative used for the turn order: halved by paralysis, 0 from 穢れ 7 on.

    ``rounding`` is the ruling ``paralysis_rounding`` (``down``, the default, or ``up``).

    >>> initiative(9, paralysed=True), initiative(9, kegare=7)
    (4, 0)
    >>> initiative(9, paralysed=True, rounding="up")
    5
    """
    if kegare >= 7:
        return 0
    if not paralysed:
        return value
    return -(-value // 2) if rounding == "up" else value // 2


@dataclass(frozen=True)
class Combatant:
    """A character as the turn order sees it.

    Attributes:
        name: shown name.
        initiative: 行動値 before statuses.
        pc: a player character (PCs act first on ties).
        paralysed: suffers 麻痺.
        kegare: current 穢れ.
    """

    name: str
    initiative: int
    pc: bool = False
    paralysed: bool = False
    kegare: int = 0


def turn_order(combatants: Sequence[Combatant], *, rounding: str = "down") -> list[Combatant]:
    """The acting order for a turn: higher initiative first, PCs first on ties.

    Ties between two PCs or two enemies keep the given order (the players or the GM
    choose it). The order is fixed at the start of the turn. ``rounding`` is the ruling
    ``paralysis_rounding``.

    >>> order = turn_order([Combatant("鬼", 6), Combatant("A", 6, pc=True), Combatant("B", 8)])
    >>> [c.name for c in order]
    ['B', 'A', '鬼']
    """

    def key(c: Combatant) -> tuple[int, bool]:
        value = initiative(c.initiative, paralysed=c.paralysed, kegare=c.kegare, rounding=rounding)
        return -value, not c.pc

    return sorted(combatants, key=key)


KEGARE_TRACK: tuple[tuple[int, str], ...] = (
    (3, "戦闘不能になったときの穢れの増加が2点になる"),
    (4, "再起判定に-3"),
    (5, "あらゆる判定に-1（他の修正と重なる）"),
    (6, "毎ターン開始時にランダムな状態異常を1つ受ける"),
    (7, "行動値が0として扱われる"),
    (8, "HP・状態異常を治すスキルとアイテムが効かない"),
    (9, "攻撃値と防御値が半分（切り捨て）になる"),
    (10, "永久に戦闘不能となる"),
)
"""穢れ thresholds and what each adds (every threshold reached applies)."""


def kegare_effects(kegare: int) -> list[str]:
    """The effects in force at ``kegare`` (all thresholds reached, lowest first).

    >>> len(kegare_effects(2)), len(kegare_effects(10))
    (0, 8)
    """
    return [text for threshold, text in KEGARE_TRACK if kegare >= threshold]


def kegare_on_down(kegare: int, *, base: int = 1) -> int:
    """穢れ gained when the character is incapacitated: ``base``, or 2 from 穢れ 3 on.

    >>> kegare_on_down(2), kegare_on_down(3)
    (1, 2)
    """
    return 2 if kegare >= 3 else base


class KegareChange(enum.Enum):
    """Ways the 穢れ track moves."""

    ACCEPT = "受容"
    """Auxiliary action: +1."""
    REJECT = "拒絶"
    """Auxiliary action: -1 (never below 0)."""
    TURN_END = "穢れの上昇"
    """End of the turn, for characters with a blessing (加護): +2."""


def kegare_after(kegare: int, change: KegareChange | str) -> int:
    """穢れ after one change.

    >>> kegare_after(0, "拒絶"), kegare_after(3, KegareChange.ACCEPT), kegare_after(4, "穢れの上昇")
    (0, 4, 6)
    """
    c = change if isinstance(change, KegareChange) else KegareChange(change)
    if c is KegareChange.ACCEPT:
        return kegare + 1
    if c is KegareChange.REJECT:
        return max(0, kegare - 1)
    return kegare + 2
