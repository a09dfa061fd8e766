"""GETB checks (1D10 + ability against a target) and contests (対決).

A check rolls one d10 and adds the ability (and modifiers): the achievement. It
succeeds when the achievement reaches the target. A die at or above the critical value
(normally 10) is a critical: automatic success. A die at or below the fumble value
(normally 1) is a fumble: automatic failure.

In a contest the side that started it (攻撃側) checks first; the other side (防御側)
then checks with the attacker's achievement as its target. Criticals and fumbles
decide before the numbers do (see :func:`contest_winner`).

>>> check_odds(3, 8).success
Fraction(3, 5)
>>> contest_odds(3, 3).success
Fraction(9, 20)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from saikoro.dice import Odds
from saikoro.systems._base import RulesError

from .chain import DEFAULT_CRITICAL, DEFAULT_FUMBLE, validate_thresholds

__all__ = [
    "ATTACKER_WINS",
    "DEFENDER_WINS",
    "MIRACLE_TARGET",
    "CheckOutcome",
    "Difficulty",
    "check_odds",
    "check_outcome",
    "contest_odds",
    "contest_winner",
    "difficulty",
]

ATTACKER_WINS = "攻撃側勝利"
"""Contest result word: the side that started the contest wins."""
DEFENDER_WINS = "防御側勝利"
"""Contest result word: the side that resisted wins."""
MIRACLE_TARGET = 16
"""From this target on the seed calls a check next to impossible."""


class Difficulty(enum.Enum):
    """The seed's bands of targets, with the feel of each (our wording)."""

    EASY = "容易"
    """Target up to 3: a God Eater hardly ever fails."""
    ORDINARY = "普通"
    """Target 4 to 7: anyone with some training manages it."""
    HARD = "困難"
    """Target 8 to 10: needs real knowledge or skill."""
    VERY_HARD = "至難"
    """Target 11 to 15: reckless without deep expertise."""
    MIRACLE = "奇跡"
    """Target 16 or more: only a stroke of luck succeeds."""


def difficulty(target: int) -> Difficulty:
    """The band a target falls in.

    >>> difficulty(3), difficulty(8), difficulty(16)
    (<Difficulty.EASY: '容易'>, <Difficulty.HARD: '困難'>, <Difficulty.MIRACLE: '奇跡'>)
    """
    if target <= 3:
        return Difficulty.EASY
    if target <= 7:
        return Difficulty.ORDINARY
    if target <= 10:
        return Difficulty.HARD
    if target <= 15:
        return Difficulty.VERY_HARD
    return Difficulty.MIRACLE


@dataclass(frozen=True)
class CheckOutcome:
    """The result of one check.

    Attributes:
        total: the achievement (die + ability + modifiers).
        critical / fumble: the die was a critical / a fumble.
        success: success against the target, ``None`` without a target.
    """

    total: int
    critical: bool
    fumble: bool
    success: bool | None

    @property
    def word(self) -> str | None:
        """The result word: クリティカル, ファンブル, 成功, 失敗 (or ``None``)."""
        if self.critical:
            return "クリティカル"
        if self.fumble:
            return "ファンブル"
        if self.success is None:
            return None
        return "成功" if self.success else "失敗"


def check_outcome(
    die: int,
    ability: int,
    target: int | None = None,
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
    miracle_tier: bool = False,
) -> CheckOutcome:
    """The outcome of a check whose d10 showed ``die``.

    The check succeeds when the total reaches the target (a critical always, a fumble never).
    With ``miracle_tier`` (ruling ``getb.miracle_tier``, off by default) a target of 16 or
    more is reached only by a critical; contests never use it (their target is the other
    side's achievement, not a GM's choice).

    >>> check_outcome(1, 9, 5).word
    'ファンブル'
    >>> check_outcome(10, 0, 30).success
    True
    >>> check_outcome(9, 7, 16).success, check_outcome(9, 7, 16, miracle_tier=True).success
    (True, False)
    """
    total = die + ability
    is_crit = die >= critical
    is_fumble = not is_crit and die <= fumble
    success: bool | None = None
    if target is not None:
        if is_crit:
            success = True
        elif is_fumble or (miracle_tier and target >= MIRACLE_TARGET):
            success = False
        else:
            success = total >= target
    return CheckOutcome(total, is_crit, is_fumble, success)


def check_odds(
    ability: int,
    target: int | None = None,
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
    miracle_tier: bool = False,
    command: str = "",
) -> Odds:
    """Exact odds of ``1D10 + ability`` against ``target`` (or without one).

    With ``miracle_tier`` (ruling ``getb.miracle_tier``, off by default) a target of 16 or
    more is reached only by a critical.

    >>> o = check_odds(3, 14)
    >>> o.success, o.critical, o.fumble
    (Fraction(1, 10), Fraction(1, 10), Fraction(1, 10))
    >>> check_odds(9, 5).success
    Fraction(9, 10)
    """
    validate_thresholds(critical, fumble)
    tenth = Fraction(1, 10)
    distribution: dict[int | str, Fraction] = {}
    success = Fraction(0)
    crit = Fraction(0)
    fum = Fraction(0)
    for die in range(1, 11):
        out = check_outcome(
            die, ability, target, critical=critical, fumble=fumble, miracle_tier=miracle_tier
        )
        distribution[out.total] = distribution.get(out.total, Fraction(0)) + tenth
        success += tenth if out.success else 0
        crit += tenth if out.critical else 0
        fum += tenth if out.fumble else 0
    return Odds(
        command=command or _check_command(ability, target, critical, fumble),
        distribution=distribution,
        success=success if target is not None else None,
        critical=crit,
        fumble=fum,
        label="達成値",
    )


def _check_command(ability: int, target: int | None, critical: int, fumble: int) -> str:
    text = f"GB{ability}" if ability else "GB"
    if target is not None:
        text += f">={target}"
    if critical != DEFAULT_CRITICAL:
        text += f"@{critical}"
    if fumble != DEFAULT_FUMBLE:
        text += f"#{fumble}"
    return text


def contest_winner(attacker: CheckOutcome | None, defender: CheckOutcome | None) -> str:
    """Who wins a contest, given both checks (``defender`` is ``None`` when not rolled).

    The defender's ``success`` must be judged against the attacker's achievement.
    Both critical: the defender. Attacker critical, defender not: the attacker.
    Attacker fumble: the defender, without rolling. Otherwise the defender wins by
    succeeding at the check (critical included) and loses by failing (fumble included).

    >>> a = check_outcome(10, 2, None)
    >>> contest_winner(a, check_outcome(10, 0, a.total))
    '防御側勝利'
    >>> contest_winner(a, check_outcome(9, 9, a.total))
    '攻撃側勝利'
    """
    if attacker is None or defender is None:
        if attacker is not None and attacker.fumble:
            return DEFENDER_WINS
        raise RulesError("both checks are needed unless the attacker fumbled")
    if attacker.fumble:
        return DEFENDER_WINS
    if attacker.critical:
        return DEFENDER_WINS if defender.critical else ATTACKER_WINS
    return DEFENDER_WINS if defender.success else ATTACKER_WINS


def contest_odds(
    attacker: int,
    defender: int,
    *,
    attacker_critical: int = DEFAULT_CRITICAL,
    attacker_fumble: int = DEFAULT_FUMBLE,
    defender_critical: int = DEFAULT_CRITICAL,
    defender_fumble: int = DEFAULT_FUMBLE,
    miracle_tier: bool = False,
    command: str = "",
) -> Odds:
    """Exact odds of a contest between abilities ``attacker`` and ``defender``.

    ``success`` is the attacker's chance to win; ``critical``/``fumble`` are the
    attacker's. Events: 両者クリティカル, 防御側クリティカル, 防御側ファンブル.

    >>> o = contest_odds(5, 2)
    >>> o.distribution[ATTACKER_WINS]
    Fraction(33, 50)
    >>> o.events["両者クリティカル"]
    Fraction(1, 100)
    """
    validate_thresholds(attacker_critical, attacker_fumble)
    validate_thresholds(defender_critical, defender_fumble)
    cell = Fraction(1, 100)
    wins: dict[int | str, Fraction] = {ATTACKER_WINS: Fraction(0), DEFENDER_WINS: Fraction(0)}
    events = {
        "両者クリティカル": Fraction(0),
        "防御側クリティカル": Fraction(0),
        "防御側ファンブル": Fraction(0),
    }
    crit = fum = Fraction(0)
    for a_die in range(1, 11):
        a = check_outcome(a_die, attacker, critical=attacker_critical, fumble=attacker_fumble)
        crit += Fraction(1, 10) if a.critical else 0
        if a.fumble:
            fum += Fraction(1, 10)
            wins[DEFENDER_WINS] += Fraction(1, 10)
            continue
        for d_die in range(1, 11):
            d = check_outcome(
                d_die,
                defender,
                a.total,
                critical=defender_critical,
                fumble=defender_fumble,
                miracle_tier=miracle_tier,
            )
            wins[contest_winner(a, d)] += cell
            if d.critical:
                events["防御側クリティカル"] += cell
                if a.critical:
                    events["両者クリティカル"] += cell
            if d.fumble:
                events["防御側ファンブル"] += cell
    return Odds(
        command=command or f"GC{attacker}/{defender}",
        distribution=wins,
        success=wins[ATTACKER_WINS],
        critical=crit,
        fumble=fum,
        events=events,
        label="勝者",
    )
