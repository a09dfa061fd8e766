"""Checks, contests and initiative of the cut-action rules, exactly.

A check (ruling ``cutaction.check_dice``) rolls under a *success value* (成功値):
achievement (達成値) = success value - roll; it succeeds when the achievement reaches the
target (目標値, 0 when none is set) and the roll is not a fumble (the highest possible
roll, which always fails).

>>> r = resolve_check(7, 3)
>>> r.achievement, r.success, r.fumble
(4, True, False)
>>> resolve_check(12, 10).success   # a fumble fails whatever the achievement
False
>>> check_probability(7)
Fraction(7, 10)
>>> check_probability(7, target=3)
Fraction(2, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from saikoro.dice import Dist

from .errors import CutActionError

__all__ = [
    "DICE_CHOICES",
    "CheckResult",
    "ContestOdds",
    "InitiativeEntry",
    "achievement_dist",
    "check_probability",
    "check_results",
    "contest_odds",
    "contest_wins",
    "dice_shape",
    "initiative_order",
    "obstruct_dist",
    "obstruct_retreat",
    "resolve_check",
    "roll_dist",
]

DICE_CHOICES = ("1D10", "2D6")
"""The check dice a table can choose (option ``check_dice``)."""


def dice_shape(dice: str) -> tuple[int, int]:
    """``(count, sides)`` of a check-dice option value.

    >>> dice_shape("2D6")
    (2, 6)
    """
    if dice not in DICE_CHOICES:
        raise CutActionError(
            f"unknown check dice {dice!r}; choose one of {', '.join(DICE_CHOICES)}"
        )
    count, sides = dice.split("D")
    return int(count), int(sides)


@cache
def roll_dist(dice: str = "1D10") -> Dist[int]:
    """The distribution of the check roll (the total of the check dice).

    >>> roll_dist("2D6").probability(12)
    Fraction(1, 36)
    """
    count, sides = dice_shape(dice)
    return Dist.die(sides).sum_of(count)


@dataclass(frozen=True)
class CheckResult:
    """One resolved check.

    Attributes:
        success_value: the 成功値 rolled under (after modifiers).
        roll: the total of the check dice.
        target: the 目標値 the achievement must reach (0 when none).
        fumble: the roll was the highest possible: an automatic failure.
    """

    success_value: int
    roll: int
    target: int = 0
    fumble: bool = False

    @property
    def achievement(self) -> int:
        """達成値: success value minus roll (negative on a failed roll)."""
        return self.success_value - self.roll

    @property
    def success(self) -> bool:
        """Whether the check succeeds (no fumble, achievement >= target)."""
        return not self.fumble and self.achievement >= self.target

    @property
    def rank(self) -> tuple[int, int]:
        """Sort key for comparing results in contests: any fumble is below every non-fumble."""
        return (0 if self.fumble else 1, self.achievement)


def resolve_check(
    success_value: int, roll: int, *, target: int = 0, dice: str = "1D10"
) -> CheckResult:
    """The result of a check whose dice totalled ``roll``.

    >>> resolve_check(5, 8).achievement
    -3
    """
    count, sides = dice_shape(dice)
    if not count <= roll <= count * sides:
        raise CutActionError(f"a {dice} roll cannot total {roll}")
    return CheckResult(success_value, roll, target, roll == count * sides)


def check_results(
    success_value: int, *, target: int = 0, dice: str = "1D10"
) -> list[tuple[CheckResult, Fraction]]:
    """Every possible result of a check with its exact probability.

    >>> [(r.roll, p) for r, p in check_results(3)][:2]
    [(1, Fraction(1, 10)), (2, Fraction(1, 10))]
    """
    return [
        (resolve_check(success_value, roll, target=target, dice=dice), p)
        for roll, p in roll_dist(dice).probabilities().items()
    ]


def achievement_dist(success_value: int, *, dice: str = "1D10") -> Dist[int]:
    """Distribution of the achievement (fumbles included with their number).

    >>> achievement_dist(4).probability(-6)
    Fraction(1, 10)
    """
    return roll_dist(dice).map(lambda roll: success_value - roll)


def check_probability(success_value: int, *, target: int = 0, dice: str = "1D10") -> Fraction:
    """Exact probability that a check succeeds.

    >>> check_probability(15)   # only the fumble fails
    Fraction(9, 10)
    """
    return sum(
        (p for r, p in check_results(success_value, target=target, dice=dice) if r.success),
        Fraction(0),
    )


# -- contests -------------------------------------------------------------------------


def contest_wins(
    active: CheckResult, passive: Sequence[CheckResult], *, rule: str = "success_needed"
) -> bool:
    """Whether the active side (who must 'win') beats the best of ``passive``.

    Ties go to the passive side; a fumble ranks below every other result and never wins. With the
    default ``rule="success_needed"`` the active check must also succeed; ``"compare"``
    compares the achievements alone.

    >>> contest_wins(resolve_check(7, 3), [resolve_check(5, 2)])
    True
    >>> contest_wins(resolve_check(7, 4), [resolve_check(5, 2)])   # 3 vs 3: a tie
    False
    >>> contest_wins(resolve_check(3, 5), [resolve_check(2, 6)])   # a failure wins nothing
    False
    >>> contest_wins(resolve_check(3, 5), [resolve_check(2, 6)], rule="compare")   # -2 beats -4
    True
    """
    if rule not in ("compare", "success_needed"):
        raise CutActionError(f"unknown contest rule {rule!r}")
    if active.fumble or (rule == "success_needed" and not active.success):
        return False
    if not passive:
        return not active.fumble
    best = max(r.rank for r in passive)
    return active.rank > best


@dataclass(frozen=True)
class ContestOdds:
    """Exact probabilities of a contest, from the active side's view.

    Attributes:
        win: the active side wins.
        tie: equal results (counted as a loss of the active side).
        active_fumble: the active check fumbles.
        passive_fumble: the best passive result is a fumble.
    """

    win: Fraction
    tie: Fraction
    active_fumble: Fraction
    passive_fumble: Fraction

    @property
    def lose(self) -> Fraction:
        """The active side does not win (ties included)."""
        return 1 - self.win


def _best_passive(passive_values: Sequence[int], dice: str) -> dict[tuple[int, int], Fraction]:
    """Distribution of the best passive rank ``(not fumble, achievement)``."""
    best: dict[tuple[int, int], Fraction] = {}
    for sv in passive_values:
        one = {r.rank: p for r, p in check_results(sv, dice=dice)}
        if not best:
            best = one
            continue
        merged: dict[tuple[int, int], Fraction] = {}
        for a, pa in best.items():
            for b, pb in one.items():
                k = max(a, b)
                merged[k] = merged.get(k, Fraction(0)) + pa * pb
        best = merged
    return best


def contest_odds(
    active_value: int,
    passive_values: Sequence[int],
    *,
    dice: str = "1D10",
    rule: str = "success_needed",
) -> ContestOdds:
    """Exact odds of an opposed check (against the best of several passive checks).

    >>> c = contest_odds(5, [5])
    >>> c.win, c.tie
    (Fraction(7, 20), Fraction(1, 10))
    """
    if not passive_values:
        raise CutActionError("a contest needs at least one passive check")
    best = _best_passive(passive_values, dice)
    win = tie = afum = Fraction(0)
    for a, pa in check_results(active_value, dice=dice):
        if a.fumble:
            afum += pa
        for rank, pb in best.items():
            if rank == a.rank:
                tie += pa * pb
            if not a.fumble and (rule != "success_needed" or a.success) and a.rank > rank:
                win += pa * pb
    pfum = sum((p for k, p in best.items() if k[0] == 0), Fraction(0))
    return ContestOdds(win, tie, afum, pfum)


def obstruct_retreat(
    active: CheckResult,
    passive: CheckResult,
    *,
    rule: str = "success_needed",
    distance: str = "difference",
) -> int:
    """How far the target of 進路妨害 falls back (0 unless the obstructor wins).

    >>> obstruct_retreat(resolve_check(8, 2), resolve_check(6, 5))
    5
    >>> obstruct_retreat(resolve_check(8, 2), resolve_check(6, 5), distance="one")
    1
    """
    if not contest_wins(active, [passive], rule=rule):
        return 0
    if distance == "one":
        return 1
    if distance != "difference":
        raise CutActionError(f"unknown obstruct distance rule {distance!r}")
    return max(1, active.achievement - passive.achievement)


def obstruct_dist(
    active_value: int,
    passive_value: int,
    *,
    dice: str = "1D10",
    rule: str = "success_needed",
    distance: str = "difference",
) -> Dist[int]:
    """Exact distribution of the retreat caused by 進路妨害.

    >>> obstruct_dist(5, 5, distance="one").probability(1)
    Fraction(7, 20)
    """
    weights: dict[int, Fraction] = {}
    for a, pa in check_results(active_value, dice=dice):
        for b, pb in check_results(passive_value, dice=dice):
            d = obstruct_retreat(a, b, rule=rule, distance=distance)
            weights[d] = weights.get(d, Fraction(0)) + pa * pb
    return Dist.from_fractions(weights)


# -- initiative -----------------------------------------------------------------------


@dataclass(frozen=True)
class InitiativeEntry:
    """One character's initiative check.

    Attributes:
        name: who.
        achievement: the achievement of the agility body check (行動値).
        fumble: the check fumbled: no action this cut.
        pc: a player character (PCs act before NPCs on equal values).
    """

    name: str
    achievement: int
    fumble: bool = False
    pc: bool = False


def initiative_order(
    entries: Iterable[InitiativeEntry], *, failed_order: str = "closest_first"
) -> list[InitiativeEntry]:
    """The acting order of a cut: successes by achievement, then failures, fumbles left out.

    Successes (achievement >= 0) act from the highest achievement down; then the failures,
    by default from the one closest to zero (``failed_order="lowest_first"``: the most
    negative first). On equal values PCs come before NPCs; otherwise the given order is kept
    (PCs among themselves choose freely).

    >>> es = [InitiativeEntry("敵", 3), InitiativeEntry("A", 3, pc=True),
    ...       InitiativeEntry("B", -1, pc=True), InitiativeEntry("C", -4),
    ...       InitiativeEntry("D", 6, fumble=True)]
    >>> [e.name for e in initiative_order(es)]
    ['A', '敵', 'B', 'C']
    >>> [e.name for e in initiative_order(es, failed_order="lowest_first")]
    ['A', '敵', 'C', 'B']
    """
    if failed_order not in ("closest_first", "lowest_first"):
        raise CutActionError(f"unknown failed initiative order {failed_order!r}")
    acting = [e for e in entries if not e.fumble]

    def key(e: InitiativeEntry) -> tuple[int, int, int]:
        if e.achievement >= 0:
            return (0, -e.achievement, 0 if e.pc else 1)
        value = -e.achievement if failed_order == "closest_first" else e.achievement
        return (1, value, 0 if e.pc else 1)

    return sorted(acting, key=key)
