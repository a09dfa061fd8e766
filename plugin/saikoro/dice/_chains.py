"""Truncated reroll chains in closed form, shared by ``U``, ``R`` and systems' chained dice.

A die that is rolled again while its face meets a condition forms a chain whose
length is unbounded. Each face scores something (its value for ``U``, 1 or 0 for a
success count ``R``); as polynomials, ``up`` holds the rerolled faces and ``stop`` the
others (``x**score`` per face), ``s`` the number of faces. The chain is cut after
``depth`` rerolls (``reach = depth + 1``); over ``s**reach`` one chain is ``stop * A``,

    ``A = sum(up**j * s**(depth - j) for j <= depth) = (s**reach - up**reach) / (s - up)``,

and ``dice`` chains together are ``stop**dice * A**dice``. :func:`chain_power` builds
this in a single pass (see :mod:`saikoro.dice._series`): the binomial expansion of the
numerator from powers of ``up`` (a three-term recurrence when the rerolled faces are a
run of equal weights), ``dice`` running divisions by ``s - up`` (a sliding window) and,
for a run of stopping faces, ``dice`` running sums -- no product of the huge weights
and no depth-by-depth rebuilding. The GETB system's chained d10 use it too.

The dropped mass is ``r**(depth+1)`` per die, where ``r`` is the chance to reroll.
:func:`depth_for` picks the depth for which ``sum(n_i * r_i**(depth+1))`` -- an upper
bound of the mass dropped from the whole command -- is at most ``TRUNCATION``, and
:func:`chain_work` estimates the size of the work from the depth, the dice, the span
of the outcomes and the bits of the weights, so that an over-large command is refused
(:func:`check_chain_work`) before anything is computed.

>>> from fractions import Fraction
>>> depth_for([(6, Fraction(1, 10))])
12
>>> chain = chain_sum(explode=[10], stop=list(range(1, 10)), sides=10, depth=1)
>>> chain.offset, chain.weights[:3], chain.weights[-1], chain.denominator
(1, [10, 10, 10], 1, 100)
>>> chain_count(1, 0, 0, 1, 2).weights  # a success that rerolls on a coin, cut at 2
[4, 2, 1]
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from typing import NamedTuple

from ._errors import InternalError, LimitError
from ._limits import (
    MAX_DEPTH,
    ODDS_MAX_BITS,
    ODDS_MAX_FRACTION_WORK,
    ODDS_MAX_OUTCOMES,
    ODDS_MAX_STATES,
    TRUNCATION,
    check,
)
from ._poly import Poly
from ._series import binomial_power, common_weight, divide, run_power, times_power

__all__ = [
    "ChainWork",
    "chain_count",
    "chain_power",
    "chain_sum",
    "chain_work",
    "chain_works",
    "check_chain_work",
    "depth_for",
    "faces_poly",
]


def depth_for(groups: list[tuple[int, Fraction]]) -> int:
    """Smallest reroll depth keeping the dropped mass of all dice at most ``TRUNCATION``.

    ``groups`` are ``(number of dice, reroll chance)`` pairs. A depth over ``MAX_DEPTH``
    is refused from a floating-point estimate, before any exact power is taken.

    >>> depth_for([(1, Fraction(9999, 10000))])
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: 振り足しの深さが上限(5000)を超えています: 276295
    """
    live = [(n, r) for n, r in groups if n > 0 and r > 0]
    if not live:
        return 0
    if any(r >= 1 for _, r in live):
        raise LimitError("振り足しが必ず起こるため確率を計算できません", bound="depth")
    total = sum(n for n, _ in live)
    worst = max(r for _, r in live)
    guess = math.log(float(TRUNCATION) / total) / math.log(float(worst))
    depth = max(0, math.ceil(guess) - 2)
    check(depth, MAX_DEPTH, "depth", "振り足しの深さ")
    while sum(n * r ** (depth + 1) for n, r in live) > TRUNCATION:
        depth += 1
        check(depth, MAX_DEPTH, "depth", "振り足しの深さ")
    return depth


def faces_poly(scores: list[int]) -> Poly:
    """The faces' scores as a polynomial with weight 1 per face (``x**score`` each).

    >>> faces_poly([3, 1, 3]).to_weights()
    {1: 1, 3: 2}
    """
    if not scores:
        return Poly(0, [0], 1)
    low = min(scores)
    out = [0] * (max(scores) - low + 1)
    for v in scores:
        out[v - low] += 1
    return Poly(low, out, 1)


def _nonzero(poly: Poly) -> tuple[int, list[int]]:
    """``(lowest degree, weights)`` with the zero weights at both ends removed."""
    w = poly.weights
    lo, hi = 0, len(w)
    while lo < hi and not w[lo]:
        lo += 1
    while hi > lo and not w[hi - 1]:
        hi -= 1
    return poly.offset + lo, w[lo:hi]


class ChainWork(NamedTuple):
    """The size of a chain computation, estimated before it is done.

    Attributes:
        depth: rerolls followed per die.
        outcomes: outcomes of the result.
        bits: bit length of the result's denominator (the size of each weight).
        result_bits: ``outcomes * (bits + 8)``, the size of the result.
        power_bits: size of the largest power of ``up`` built.
        steps: running-recurrence steps (result outcomes times ``dice`` divisions).
    """

    depth: int
    outcomes: int
    bits: int
    result_bits: int
    power_bits: int
    steps: int


def chain_work(up: Poly, stop: Poly, depth: int, dice: int = 1) -> ChainWork:
    """Estimate :func:`chain_power` ``(up, stop, depth, dice)`` without computing it.

    >>> w = chain_work(faces_poly([10]), faces_poly(list(range(1, 10))), 12, 6)
    >>> w.outcomes, w.bits, w.steps
    (769, 261, 14035)
    """
    sides = up.total() + stop.total()
    uo, uw = _nonzero(up)
    sw = _nonzero(stop)[1]
    if not sw:
        return ChainWork(depth, 1, 1, 9, 0, 0)
    if not uw or depth == 0:
        outcomes = dice * (len(sw) - 1) + 1
        bits = math.ceil(dice * math.log2(max(2, sides)))
        return ChainWork(depth, outcomes, bits, outcomes * (bits + 8), 0, 0)
    hi = uo + len(uw) - 1
    reach = depth + 1
    length = dice * depth * hi + 1  # weights of A**dice
    outcomes = length + dice * (len(sw) - 1)
    bits = math.ceil(dice * reach * math.log2(sides)) + 1
    power_terms = min(length, dice * reach * (len(uw) - 1) + 1)
    if len(uw) <= 2 or common_weight(uw):  # built by a recurrence, no big power
        power_terms = 0
    power_bits = power_terms * (math.ceil(dice * reach * math.log2(max(2, sum(uw)))) + 9)
    # a power of ``up`` and a division per die over ``length``, then the stopping faces
    steps = 2 * dice * length + (dice + 1) * outcomes
    return ChainWork(depth, outcomes, bits, outcomes * (bits + 8), power_bits, steps)


def chain_works(
    groups: list[tuple[int, Poly, Poly]], depth: int, *, per_die: bool = False
) -> list[ChainWork]:
    """Estimate every chain of a command and the product of them all.

    ``groups`` are ``(dice, up, stop)``. With ``per_die`` each die's chain is built alone
    and reduced to a success or a failure (so the product counts successes); otherwise
    the ``dice`` chains of a group are built together. The last item is the product.

    >>> d10 = faces_poly([10]), faces_poly(list(range(1, 10)))
    >>> [w.outcomes for w in chain_works([(3, *d10), (2, *d10)], 12)]
    [385, 257, 641]
    >>> [w.outcomes for w in chain_works([(3, *d10)], 12, per_die=True)]
    [129, 4]
    """
    works = [chain_work(up, stop, depth, 1 if per_die else n) for n, up, stop in groups]
    if per_die:
        outcomes = sum(n for n, _, _ in groups) + 1
        bits = sum(n * w.bits for (n, _, _), w in zip(groups, works, strict=True))
    else:
        outcomes = sum(w.outcomes - 1 for w in works) + 1
        bits = sum(w.bits for w in works)
    works.append(ChainWork(depth, outcomes, bits, outcomes * (bits + 8), 0, 0))
    return works


def check_chain_work(works: list[ChainWork], what: str = "") -> None:
    """Raise :class:`LimitError` when an estimated chain computation is over a bound.

    The bounds are the engine's ``ODDS_MAX_OUTCOMES`` (``outcomes``), ``ODDS_MAX_BITS``
    (``bits``: the result and the power of ``up``), ``ODDS_MAX_STATES`` (``states``) and
    ``ODDS_MAX_FRACTION_WORK`` (``fractions``: outcomes times squared weight bits, the
    cost of reducing the probabilities to lowest terms).

    >>> up, stop = faces_poly(list(range(2, 11))), faces_poly([1])
    >>> check_chain_work([chain_work(up, stop, 262, 1)])
    >>> check_chain_work([chain_work(up, stop, 262, 2)], "・2U10[2]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: 振り足しの計算量（ビット数）が上限(8000000)を超えて...
    """
    for work in works:
        note = f" (振り足しの深さ{work.depth}{what})"
        for value, bound, name, label in (
            (work.outcomes, ODDS_MAX_OUTCOMES, "outcomes", "結果の種類"),
            (work.result_bits, ODDS_MAX_BITS, "bits", "計算量（ビット数）"),
            (work.power_bits, ODDS_MAX_BITS, "bits", "計算量（冪のビット数）"),
            (work.steps, ODDS_MAX_STATES, "states", "計算量（状態数）"),
            (
                work.outcomes * work.bits**2,
                ODDS_MAX_FRACTION_WORK,
                "fractions",
                "確率の約分の計算量",
            ),
        ):
            if value > bound:
                raise LimitError(
                    f"振り足しの{label}が上限({bound})を超えています: {value}{note}", bound=name
                )


def chain_power(up: Poly, stop: Poly, depth: int, dice: int = 1) -> Poly:
    """The total score of ``dice`` chains, each followed to ``depth`` rerolls, exactly.

    ``up`` and ``stop`` give, by score, how many faces reroll and how many stop (their
    denominators are ignored; ``s`` is their total count); scores are non-negative.
    The weights are over ``s**((depth + 1) * dice)`` (over ``s**dice`` when nothing
    rerolls or ``depth`` is 0); the chains too long to follow are left out. Estimate
    the work first with :func:`chain_work`.

    >>> d6 = faces_poly([6]), faces_poly([1, 2, 3, 4, 5])
    >>> two = chain_power(*d6, depth=2, dice=2)
    >>> two.weights == chain_power(*d6, depth=2).power(2).weights, two.denominator
    (True, 46656)
    """
    if dice <= 0:
        return Poly.constant(0)
    sides = up.total() + stop.total()
    uo, uw = _nonzero(up)
    so, sw = _nonzero(stop)
    if uo < 0 and uw:
        raise InternalError("scores must not be negative")
    if not sw:
        return Poly(0, [0], sides ** ((depth + 1) * dice))
    if not uw or depth == 0:
        return Poly(so * dice, times_power([1], sw, dice), sides**dice)
    reach = depth + 1
    length = dice * depth * (uo + len(uw) - 1) + 1  # A**dice has this many weights
    # the numerator (s**reach - up**reach)**dice, as far as A**dice reaches
    num = [0] * length
    num[0] = sides ** (reach * dice)
    same = common_weight(uw)
    if length == 1:  # ``up`` is a constant (rerolls that score 0): one power, no expansion
        num[0] = (sides**reach - uw[0] ** reach) ** dice
    for i in range(1, dice + 1 if length > 1 else 1):
        n = reach * i
        start = uo * n
        if start >= length:
            break
        if same:
            term = run_power(len(uw), n, length - start)
            coef = same**n
        elif len(uw) == 2:
            term = binomial_power(uw[0], uw[1], n, length - start)
            coef = 1
        else:
            term = Poly(0, uw, 1).power(n).weights[: length - start]
            coef = 1
        coef *= comb(dice, i) * sides ** (reach * (dice - i))
        if i % 2:
            coef = -coef
        for j, w in enumerate(term, start):
            num[j] += coef * w
    const = sides
    if uo == 0:  # rerolled faces scoring 0 belong to the divisor's constant
        const -= uw[0]
        uo, uw = _nonzero(Poly(1, uw[1:], 1))
    for _ in range(dice):
        num = divide(num, uo, uw, const) if uw else [v // const for v in num]
    out = times_power(num, sw, dice)
    while len(out) > 1 and not out[-1]:
        out.pop()
    return Poly(so * dice, out, sides ** (reach * dice))


def chain_sum(explode: list[int], stop: list[int], sides: int, depth: int) -> Poly:
    """Sum of one die rolled again (and added) while it shows a face in ``explode``.

    ``explode`` and ``stop`` list the face values (each of weight 1 over ``sides``,
    their number).
    """
    if len(explode) + len(stop) != sides:
        raise InternalError("the faces must number the sides")
    return chain_power(faces_poly(explode), faces_poly(stop), depth)


def chain_count(
    hit_reroll: int, miss_reroll: int, hit_stop: int, miss_stop: int, depth: int
) -> Poly:
    """Successes counted over one die's reroll chain.

    The four arguments count faces by (success?, rerolled?); their sum is the sides.
    """
    up = Poly(0, [miss_reroll, hit_reroll], 1)
    return chain_power(up, Poly(0, [miss_stop, hit_stop], 1), depth)
