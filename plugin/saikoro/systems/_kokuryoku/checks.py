"""Exact mathematics of the nation-building game's checks (pure functions).

Every check is "ability + base dice". The base dice are not named by the rule text;
saikoro uses one ten-sided die by default (see the ``die`` / ``die_count`` rulings),
so every function takes ``die`` (sides) and ``count`` (number of dice).

>>> check(3).probability(9)
Fraction(1, 10)
>>> r = cooperative([3, 3], 20)
>>> r.success
Fraction(7, 25)
>>> gain_for(False, 25)
12
>>> damage(9, 6).probability(0)
Fraction(7, 25)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from saikoro.dice import Dist, LimitError
from saikoro.systems._base import RulesError

__all__ = [
    "MAX_PARTICIPANTS",
    "MAX_WORK",
    "AttackResult",
    "CooperativeResult",
    "attack",
    "attack_wins",
    "base_dist",
    "check",
    "contest",
    "cooperative",
    "damage",
    "damage_dealt",
    "first_odds",
    "first_player",
    "gain_for",
    "group_total",
    "reached",
]

MAX_PARTICIPANTS = 30
"""Most checks one cooperative check or one side of a contest may chain."""


def base_dist(die: int = 10, count: int = 1) -> Dist[int]:
    """The base roll: the sum of ``count`` dice of ``die`` sides.

    >>> base_dist(6, 2).probability(7)
    Fraction(1, 6)
    """
    if die < 1 or count < 1:
        raise RulesError("the base roll needs at least one die with at least one side")
    return Dist.die(die).sum_of(count)


def check(ability: int, *, modifier: int = 0, die: int = 10, count: int = 1) -> Dist[int]:
    """Distribution of one check's achievement: ability + modifier + base dice.

    >>> check(3, modifier=2).outcomes()[0]
    6
    """
    return base_dist(die, count) + (ability + modifier)


def group_total(abilities: Sequence[int], *, die: int = 10, count: int = 1) -> Dist[int]:
    """Sum of the achievements when every listed character rolls (starter first).

    >>> group_total([3, 2]).probability(25)
    Fraction(1, 100)
    """
    base = base_dist(die, count)
    _bound(abilities, base)
    total: Dist[int] = Dist.constant(0)
    for a in abilities:
        total = total + (base + a)
    return total


def reached(total: int, target: int) -> bool:
    """Whether a summed achievement reaches the target (the target itself counts).

    >>> reached(20, 20), reached(19, 20)
    (True, False)
    """
    return total >= target


@dataclass(frozen=True)
class CooperativeResult:
    """Exact result of a middle-phase cooperative check.

    Attributes:
        total: distribution of the final summed achievement (when the chain stopped).
        used: distribution of how many characters rolled.
        success: probability that the sum reached the target.
        reached_by: ``k -> probability that the k-th roller made the sum reach the target``.
    """

    total: Dist[int]
    used: Dist[int]
    success: Fraction
    reached_by: dict[int, Fraction]

    def gain(self, gain: int) -> Dist[int]:
        """Distribution of the national power gained (full on success, half on failure).

        >>> cooperative([3], 10).gain(25).probabilities()
        {12: Fraction(3, 5), 25: Fraction(2, 5)}
        """
        return Dist.from_fractions(
            {gain_for(True, gain): self.success, gain_for(False, gain): 1 - self.success}
            if gain_for(True, gain) != gain_for(False, gain)
            else {gain: Fraction(1)}
        )


def cooperative(
    abilities: Sequence[int], target: int, *, die: int = 10, count: int = 1
) -> CooperativeResult:
    """Odds of a middle-phase check: the starter rolls, supporters add until the target.

    ``abilities`` lists the ability used by each character in the order they roll (the
    starter first). A roll is added only while the sum is still below ``target``;
    the chain ends once the sum reaches the target or the list runs out.

    >>> r = cooperative([3, 3], 20)
    >>> r.reached_by
    {1: Fraction(0, 1), 2: Fraction(7, 25)}
    >>> r.used.probabilities()
    {2: Fraction(1, 1)}
    """
    if not abilities:
        raise RulesError("a cooperative check needs at least one character")
    base = base_dist(die, count)
    _bound(abilities, base)
    denominator = base.denominator ** len(abilities)
    pending: dict[int, int] = {0: denominator}  # running sum -> weight over ``denominator``
    finished: dict[int, int] = {}
    used: dict[int, int] = {}
    reached_at: dict[int, int] = {}
    for k, ability in enumerate(abilities, start=1):
        nxt: dict[int, int] = {}
        for s, w in pending.items():
            unit = w // base.denominator
            for face, fw in base.items():
                t = s + face + ability
                weight = unit * fw
                if reached(t, target):
                    finished[t] = finished.get(t, 0) + weight
                    used[k] = used.get(k, 0) + weight
                    reached_at[k] = reached_at.get(k, 0) + weight
                else:
                    nxt[t] = nxt.get(t, 0) + weight
        pending = nxt
    last = len(abilities)
    for s, w in pending.items():
        finished[s] = finished.get(s, 0) + w
        used[last] = used.get(last, 0) + w
    return CooperativeResult(
        total=Dist(finished, denominator),
        used=Dist(used, denominator),
        success=Fraction(sum(reached_at.values()), denominator),
        reached_by={
            k: Fraction(reached_at.get(k, 0), denominator) for k in range(1, len(abilities) + 1)
        },
    )


def gain_for(success: bool, gain: int) -> int:
    """National power gained: all of ``gain`` on success, half (rounded down) on failure.

    >>> gain_for(True, 25), gain_for(False, 25)
    (25, 12)
    """
    return gain if success else gain // 2


def attack_wins(attack_total: int, defence_total: int) -> bool:
    """Whether the attack check beats the defence check (ties go to the attacker).

    >>> attack_wins(9, 9), attack_wins(8, 9)
    (True, False)
    """
    return attack_total >= defence_total


def contest(
    attack_abilities: Sequence[int],
    defence_abilities: Sequence[int],
    *,
    die: int = 10,
    count: int = 1,
) -> Fraction:
    """Probability that the attacking side wins (ties go to the attacker).

    Both sides sum the checks of every listed character (attacker, then supporters).

    >>> contest([3], [3])
    Fraction(11, 20)
    """
    a = group_total(attack_abilities, die=die, count=count)
    d = group_total(defence_abilities, die=die, count=count)
    # P(A wins) = sum over d of P(D = d) * P(A beats d): winning is monotone in A, so a
    # running tail of A (from the top) serves every d in descending order.
    a_items = sorted(a.items(), reverse=True)
    tail = 0
    i = 0
    wins = 0
    for value, weight in sorted(d.items(), reverse=True):
        while i < len(a_items) and attack_wins(a_items[i][0], value):
            tail += a_items[i][1]
            i += 1
        wins += weight * tail
    return Fraction(wins, a.denominator * d.denominator)


def damage_dealt(hit: int, guard: int | None, floor: int = 0) -> int:
    """The damage of a won attack: final attack ``hit`` minus final defence ``guard``.

    ``guard=None`` is a declined reaction (the defence counts as 0). Never below ``floor``.

    >>> damage_dealt(17, 13), damage_dealt(5, 9), damage_dealt(12, None), damage_dealt(5, 9, 1)
    (4, 0, 12, 1)
    """
    return max(floor, hit - (0 if guard is None else guard))


def damage(
    attack_power: int,
    defence_power: int | None,
    *,
    floor: int = 0,
    die: int = 10,
    count: int = 1,
) -> Dist[int]:
    """Damage once the attack has won: (attack power + dice) - (defence power + dice).

    ``defence_power=None`` means the defender declined the reaction: the defence side
    counts as 0 and rolls nothing. Results below ``floor`` become ``floor``.

    >>> damage(9, None).outcomes()[:3]
    [10, 11, 12]
    >>> damage(9, 6).probability(4)
    Fraction(9, 100)
    """
    base = base_dist(die, count)
    hit = base + attack_power
    if defence_power is None:
        return hit.map(lambda v: damage_dealt(v, None, floor))
    guard = base + defence_power
    return hit.combine(guard, lambda x, y: damage_dealt(x, y, floor))


@dataclass(frozen=True)
class AttackResult:
    """Exact result of a whole final-phase attack.

    Attributes:
        attacker_wins: probability that the attack check won the contest.
        damage: distribution of the damage dealt (0 when the defence won).
    """

    attacker_wins: Fraction
    damage: Dist[int]


def attack(
    attack_abilities: Sequence[int],
    defence_abilities: Sequence[int] | None,
    attack_power: int,
    defence_power: int,
    *,
    floor: int = 0,
    die: int = 10,
    count: int = 1,
) -> AttackResult:
    """A whole attack: contest of checks with support, then damage when the attack wins.

    ``defence_abilities=None`` means the reaction was declined: the attack wins without
    a contest and the defence counts as 0.

    >>> r = attack([3], [3], 9, 6)
    >>> r.attacker_wins
    Fraction(11, 20)
    >>> r.damage.probability(4) == r.attacker_wins * Fraction(9, 100)
    True
    """
    if defence_abilities is None:
        return AttackResult(
            Fraction(1), damage(attack_power, None, floor=floor, die=die, count=count)
        )
    win = contest(attack_abilities, defence_abilities, die=die, count=count)
    hit = damage(attack_power, defence_power, floor=floor, die=die, count=count)
    return AttackResult(win, Dist.mix([(win, hit), (1 - win, Dist.constant(0))]))


def first_player(pc_power: int, npc_power: int, tie: str = "pc") -> str | None:
    """Which side goes first in a final-phase round: ``"PC"``, ``"NPC"`` or ``None``.

    The side with more national power goes first; on equal power ``tie`` decides
    (``"pc"``, ``"npc"``, or ``"dice"`` which returns ``None``: roll for it).

    >>> first_player(90, 100), first_player(50, 50), first_player(50, 50, "dice")
    ('NPC', 'PC', None)
    """
    if pc_power != npc_power:
        return "PC" if pc_power > npc_power else "NPC"
    if tie == "dice":
        return None
    return "NPC" if tie == "npc" else "PC"


def first_odds(
    pc_power: int, npc_power: int, tie: str = "pc", *, die: int = 10, count: int = 1
) -> Fraction:
    """P(the PC side goes first in a round), from :func:`first_player`.

    On equal power with ``tie="dice"`` each side rolls the base dice, the higher goes
    first and equal rolls are rolled again: P = P(PC higher) / P(not equal).

    >>> first_odds(90, 100), first_odds(50, 50), first_odds(50, 50, "dice")
    (Fraction(0, 1), Fraction(1, 1), Fraction(1, 2))
    """
    side = first_player(pc_power, npc_power, tie)
    if side is not None:
        return Fraction(1 if side == "PC" else 0)
    base = base_dist(die, count)
    higher = base.combine(base, lambda p, n: int(p > n) - int(p < n))
    pc, npc = higher.probability(1), higher.probability(-1)
    return pc / (pc + npc) if pc + npc else Fraction(1, 2)


MAX_WORK = 1_000_000
"""Bound on the estimated inner-loop steps of one chained computation."""


def _bound(abilities: Sequence[int], base: Dist[int] | None = None) -> None:
    n = len(abilities)
    if n > MAX_PARTICIPANTS:
        raise LimitError(
            f"1回の判定に参加できるのは{MAX_PARTICIPANTS}人までです", bound="participants"
        )
    if base is not None and n * n * len(base) * len(base) // 2 > MAX_WORK:
        raise LimitError("参加人数とダイスの組み合わせが大きすぎます", bound="work")
