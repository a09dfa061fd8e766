"""The odds of a whole attack: damage check, guard check and final damage together.

The attack's achievements and the guard's are independent, so the distribution of
their difference is one convolution of the attack with the mirrored guard instead of
a loop over every pair. A critical guard is a perfect guard whatever its chains, so
only the attack's chains are followed.

>>> o = final_damage_odds(CheckSpec(3, 7), CheckSpec(3, 5))
>>> o.distribution[0] == o.events[PERFECT_GUARD] + o.events[ATTACK_FAILED]
True
"""

from __future__ import annotations

from fractions import Fraction
from itertools import accumulate
from operator import sub

from saikoro.dice import ODDS_MAX_BITS, LimitError, Odds, Poly
from saikoro.systems._base import OptionError

from .chain import spread_work
from .damage import (
    ATTACK_FAILED,
    DEFENDED,
    FAILED,
    GUARD_FAILED,
    HIT,
    NO_GUARD,
    PERFECT,
    PERFECT_GUARD,
    TIE_RULES,
    CheckSpec,
    attack_weights,
    events_of,
    guard_weights,
)

__all__ = ["MAX_FOLDED_PAIRS", "final_damage_odds", "truncated_floor"]

MAX_FOLDED_PAIRS = 600_000
"""Most (attack, guard) achievement pairs when the guard can fall below 0.

Such a guard (a modifier under minus its dice) is clamped at 0, which breaks the
running-sum shortcut; the plain convolution it needs is bounded instead (a realistic
guard never gets there).
"""


def _difference(attack: dict[int, int], guard: dict[int, int]) -> dict[int, int]:
    """Weights of ``attack - guard`` over every pair: convolutions with the mirrored guard.

    The attack is cut into pieces small enough for the engine's packed products.

    >>> _difference({5: 1, 6: 2}, {1: 1, 2: 1})
    {3: 1, 4: 3, 5: 2}
    """
    a = Poly.from_weights(attack, 1)
    g = Poly.from_weights(guard, 1).negate()
    width = (a.total() * g.total()).bit_length() + 16
    piece = max(1, ODDS_MAX_BITS // (2 * width) - len(g.weights))
    out: dict[int, int] = {}
    for start in range(0, len(a.weights), piece):
        part = Poly(a.offset + start, a.weights[start : start + piece], 1) * g
        for k, w in part.to_weights().items():
            out[k] = out.get(k, 0) + w
    return out


def _times_dice(weights: list[int], faces: int, dice: int) -> list[int]:
    """``weights`` times ``(1 + x + ... + x**(faces - 1))**dice``: running sums only.

    >>> _times_dice([1, 1], 2, 2)
    [1, 3, 3, 1]
    """
    out = weights
    for _ in range(dice):
        sums = list(accumulate(out + [0] * (faces - 1)))
        out = list(map(sub, sums, [0] * faces + sums[: len(sums) - faces]))
    return out


def _difference_from_dice(
    attack: dict[int, int], guard: CheckSpec, fumble_fails: bool
) -> dict[int, int]:
    """:func:`_difference` against a guard whose achievements are all 0 or more.

    Such a guard is ``x**(dice + modifier)`` times the no-critical dice minus (when
    fumbles fail) the fumble dice, both sums of equal dice, so the mirrored product is
    a few running sums per die instead of a product of huge numbers.

    >>> g = CheckSpec(2, 0, 10, 1)
    >>> guard = {k: w for k, w in guard_weights(g, True, True)[0].items() if isinstance(k, int)}
    >>> _difference_from_dice({7: 3, 9: 1}, g, True) == _difference(
    ...     {7: 3, 9: 1}, guard)
    True
    """
    n, low = guard.dice, min(guard.critical - 1, 10)
    fumble = min(guard.fumble, 10) if fumble_fails else 0
    a = Poly.from_weights(attack, 1)
    out: dict[int, int] = {}
    for faces, sign in ((low, 1), (fumble, -1)):
        if faces <= 0:
            continue
        # attack times the mirrored faces: lowest difference a - (dice + modifier + ...)
        first = a.offset - (n + guard.modifier) - (faces - 1) * n
        for i, w in enumerate(_times_dice(a.weights, faces, n), first):
            if w:
                out[i] = out.get(i, 0) + sign * w
    return {k: w for k, w in sorted(out.items()) if w}


def truncated_floor(
    attack: CheckSpec,
    guard: CheckSpec | None,
    *,
    final_modifier: int = 0,
    guard_fumble_fails: bool = True,
) -> int:
    """The least final damage an attack chain too long to follow (``truncated``) deals.

    Such a chain reaches at least the spread's ``cut_minimum``; against a guard that is
    not a critical (a critical stops it, and :func:`final_damage_odds` counts that mass
    exactly) it deals at least that minus the best guard. 0 when a guard could match it
    (nothing is promised then).

    >>> truncated_floor(CheckSpec(3, 8), CheckSpec(2, 5))
    118
    >>> truncated_floor(CheckSpec(1, 0), None)
    121
    """
    if attack.dice <= 0:
        return 0
    low = attack.spread().cut_minimum
    best = 0
    if guard is not None and guard.dice > 0:
        weights, _ = guard_weights(guard, guard_fumble_fails, True)
        best = max((g for g in weights if isinstance(g, int)), default=0)
    damage = low - best if low > best else 0
    return max(0, damage + final_modifier) if damage >= 1 else 0


def final_damage_odds(
    attack: CheckSpec,
    guard: CheckSpec | None,
    *,
    final_modifier: int = 0,
    tie: str = "defender",
    damage_fumble_fails: bool = True,
    guard_fumble_fails: bool = True,
    command: str = "",
) -> Odds:
    """Exact distribution of the final damage of an attack against a guard (or none).

    ``success`` is the chance of dealing 1 or more damage; ``critical``/``fumble`` are
    the damage check's. Events: 有効打, 防御, 完全防御, 攻撃失敗, ガード失敗, ガードなし.
    Attack chains too long to follow are ``truncated``, except against a critical guard:
    that stops them all, so 0 damage and 完全防御 are exact. Against any other guard
    their achievement is so high that they deal 1 or more (checked, not assumed): then
    ``success`` counts them too and is exact (see ``truncated_success``).

    >>> o = final_damage_odds(CheckSpec(1, 0), None)
    >>> o.distribution[0], o.events[ATTACK_FAILED], o.success
    (Fraction(1, 10), Fraction(1, 10), Fraction(9, 10))
    """
    if tie not in TIE_RULES:
        raise OptionError(f"unknown tie rule {tie!r}")
    simple = guard is None or guard.dice <= 0 or guard.dice + guard.modifier >= 0
    if not simple and guard is not None and attack.dice > 0:
        _, _, _, steps = spread_work(attack.dice, attack.critical)  # outcomes times dice
        pairs = steps // attack.dice * (guard.dice * 9 + 1)
        if pairs > MAX_FOLDED_PAIRS:  # the engine's message for a bound
            raise LimitError(
                f"最終ダメージの計算量（組の数）が上限({MAX_FOLDED_PAIRS})を超えています: {pairs}",
                bound="final_pairs",
            )
    aw, ad = attack_weights(attack, damage_fumble_fails)
    a_trunc = attack.spread().truncated if attack.dice > 0 else Fraction(0)
    gw: dict[int | str, int]
    if guard is None:
        gw, gd = {"none": 1}, 1
    else:
        gw, gd = guard_weights(guard, guard_fumble_fails, True)
    out: dict[int, int] = {}
    words: dict[str, int] = {}

    def add(damage: int, word: str, weight: int) -> None:
        if damage >= 1:
            damage = max(0, damage + final_modifier)
        out[damage] = out.get(damage, 0) + weight
        words[word] = words.get(word, 0) + weight

    positive = {a: w for a, w in aw.items() if a > 0}
    if aw.get(0):
        add(0, ATTACK_FAILED, aw[0] * gd)
    flat = {PERFECT: (0, PERFECT_GUARD), FAILED: (None, GUARD_FAILED), "none": (None, NO_GUARD)}
    for g, wg in gw.items():
        if not isinstance(g, str):
            continue
        fixed, word = flat[g]
        if fixed is not None:
            add(fixed, word, sum(positive.values()) * wg)
            continue
        for a, wa in positive.items():
            add(a, word, wa * wg)
    guard_ints = {g: w for g, w in gw.items() if isinstance(g, int)}
    if positive and guard_ints:
        diff = (
            _difference_from_dice(positive, guard, guard_fumble_fails)
            if simple and guard is not None
            else _difference(positive, guard_ints)
        )
        for d, w in diff.items():
            if d >= 1:
                add(d, HIT, w)
            else:
                add(0 if d == 0 and tie == "zero" else 1, DEFENDED, w)
    # Attack chains too long to follow are criticals with huge totals: their damage is
    # unknown, except against a critical guard, which stops them all (0, exactly).
    cut = ad - sum(aw.values())
    if cut and gw.get(PERFECT):
        add(0, PERFECT_GUARD, cut * gw[PERFECT])
    denominator = ad * gd
    distribution: dict[int | str, Fraction] = {
        k: Fraction(w, denominator) for k, w in sorted(out.items()) if w
    }
    spread_a = attack.spread() if attack.dice > 0 else None
    truncated = a_trunc - Fraction(cut * gw.get(PERFECT, 0), denominator)
    cut_succeeds = Fraction(0)
    if spread_a is not None and truncated:
        floor = truncated_floor(
            attack, guard, final_modifier=final_modifier, guard_fumble_fails=guard_fumble_fails
        )
        if floor >= 1:  # every cut-off attack deals at least this
            cut_succeeds = truncated
    return Odds(
        command=command,
        distribution=distribution,
        success=sum(
            (p for k, p in distribution.items() if isinstance(k, int) and k >= 1), Fraction(0)
        )
        + cut_succeeds,
        truncated=truncated,
        truncated_success=cut_succeeds,
        critical=spread_a.critical_probability if spread_a else Fraction(0),
        fumble=spread_a.fumble_probability if spread_a else Fraction(0),
        events=events_of({k: Fraction(w, denominator) for k, w in words.items()}),
        label="最終ダメージ",
    )
