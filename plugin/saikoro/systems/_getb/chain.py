"""Chained d10 checks: the dice mechanics shared by every GETB check.

A GETB check rolls some ten-sided dice. A die showing the critical value or more is a
critical and brings one more die, which may chain again (exactly BCDice's ``xU10[c]``:
each die's chain is rolled to its end before the next die). The check fumbles when
every die shows the fumble value or less. The plain check is the one-die case.

The exact spread of a check splits the achievement by kind (normal, critical, fumble).
Chains are unbounded, so very long chains are cut off and their mass is reported as
``truncated``; the critical and fumble probabilities themselves are exact.

The dice together have a closed form (:func:`chain_weights`, the engine's
:func:`saikoro.dice.chain_power` for d10), worked out with running sums instead
of products of huge numbers. The work is estimated first
(:func:`check_work`): a check over one of the work bounds is refused at once with a
:class:`~saikoro.dice.LimitError` naming the bound.

>>> s = spread(1, 3)
>>> s.critical_probability, s.fumble_probability
(Fraction(1, 10), Fraction(1, 10))
>>> s.normal[8]
Fraction(1, 10)
>>> spread(2, 0).fumble
{2: Fraction(1, 100)}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from saikoro.dice import (
    DiceSource,
    LimitError,
    ParseError,
    Poly,
    chain_power,
    depth_for,
    faces_poly,
)

__all__ = [
    "DEFAULT_CRITICAL",
    "DEFAULT_FUMBLE",
    "MAX_CRITICAL_BITS",
    "MAX_DICE",
    "MAX_WORK_BITS",
    "MAX_WORK_STEPS",
    "TRUNCATION",
    "ChainRoll",
    "Spread",
    "chain_depth",
    "chain_weights",
    "check_work",
    "roll_chain",
    "spread",
    "validate_thresholds",
]

DEFAULT_CRITICAL = 10
"""A die showing this or more is a critical, unless a skill changes it."""
DEFAULT_FUMBLE = 1
"""The check fumbles when every die shows this or less, unless a skill changes it."""
MAX_DICE = 40
"""Most dice a single check may start with (a bound of the engine, not of the rules)."""
MAX_ROLLED = 1000
"""Most dice one rolled check may use, chains included."""
TRUNCATION = Fraction(1, 10**12)
"""Chains are followed until the mass they could still carry is at most this."""
MAX_WORK_BITS = 10_500_000
"""Most bits of exact weights one spread may hold (outcomes times weight size).

Forty dice with the usual critical value 10 need 10.47 million (about 0.15 s for the
check, 0.4 s for a whole attack against as many guard dice); fifteen dice with critical
value 7 fit, thirty dice with critical value 8 (20 million) are refused.
"""
MAX_CRITICAL_BITS = 2_500_000
"""Most bits of the power of the critical faces a spread may build.

A low critical value makes many faces chain, and this power grows with their number:
ten dice with critical value 6 need 2.3 million bits (about 0.3 s); five dice with
critical value 4 (3.1 million) and two dice with critical value 2 (9.3 million, 268
deep) are refused.
"""
MAX_WORK_STEPS = 500_000
"""Most running-recurrence steps (outcomes times dice) one spread may take."""


def chain_weights(critical: int, depth: int, dice: int = 1) -> Poly:
    """The total of ``dice`` chained d10, each followed to ``depth`` extra dice, exactly.

    The weights are over ``10**((depth + 1) * dice)`` (``10**dice`` when nothing chains).

    >>> w = chain_weights(10, 1)
    >>> w.offset, w.weights[:3], w.weights[-1], w.denominator
    (1, [10, 10, 10], 1, 100)
    """
    up = faces_poly(list(range(critical, 11)))
    return chain_power(up, faces_poly(list(range(1, min(critical, 11)))), depth, dice)


def validate_thresholds(critical: int, fumble: int) -> None:
    """Raise :class:`ParseError` unless the critical and fumble values make sense.

    A critical value of 1 would make every die chain for ever; a fumble value at or
    above the critical value would let one die be both.

    >>> validate_thresholds(10, 1)
    >>> validate_thresholds(1, 0)
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.ParseError: クリティカル値は2以上にしてください (1)
    """
    if critical < 2:
        raise ParseError(f"クリティカル値は2以上にしてください ({critical})")
    if fumble < 0:
        raise ParseError(f"ファンブル値は0以上にしてください ({fumble})")
    if fumble >= critical:
        raise ParseError(
            f"ファンブル値({fumble})はクリティカル値({critical})より小さくしてください"
        )


def chain_depth(critical: int, dice: int = 1) -> int:
    """How many extra dice each die's chain is followed to in exact computations.

    The smallest depth whose dropped mass, ``dice * p**(depth + 1)`` with ``p`` the chance
    of a critical, is at most 10^-12 (the rule of the engine's ``U`` command, so that
    ``GD3+7`` and ``3U10[10]+7`` give the same distribution).

    >>> chain_depth(10), chain_depth(10, 3), chain_depth(11)
    (11, 12, 0)
    """
    return depth_for([(dice, Fraction(max(0, 11 - critical), 10))])


@dataclass(frozen=True)
class Spread:
    """The exact spread of a chained check's achievement (dice total + modifier).

    Weights are integers over ``denominator``; the properties give probabilities.

    Attributes:
        dice: how many dice the check starts with.
        modifier: the fixed part added to the dice total.
        denominator: the common denominator of the weights.
        normal_weights / critical_weights / fumble_weights: achievement -> weight, by kind.
        critical_probability / fumble_probability: exact (truncation included).
        truncated: mass of the chains too long to follow (all of it critical).
        cut_minimum: the smallest achievement a chain too long to follow can reach.
    """

    dice: int
    modifier: int
    denominator: int
    normal_weights: dict[int, int]
    critical_weights: dict[int, int]
    fumble_weights: dict[int, int]
    critical_probability: Fraction
    fumble_probability: Fraction
    truncated: Fraction
    cut_minimum: int = 0

    def _p(self, weights: dict[int, int]) -> dict[int, Fraction]:
        return {k: Fraction(w, self.denominator) for k, w in weights.items()}

    @property
    def normal(self) -> dict[int, Fraction]:
        """Achievement -> probability without critical or fumble."""
        return self._p(self.normal_weights)

    @property
    def critical(self) -> dict[int, Fraction]:
        """Achievement -> probability of the critical results (retained chains only)."""
        return self._p(self.critical_weights)

    @property
    def fumble(self) -> dict[int, Fraction]:
        """Achievement -> probability of the fumbles."""
        return self._p(self.fumble_weights)

    def total_weights(self) -> dict[int, int]:
        """Achievement -> weight, every kind together."""
        out: dict[int, int] = {}
        for part in (self.normal_weights, self.critical_weights, self.fumble_weights):
            for k, w in part.items():
                out[k] = out.get(k, 0) + w
        return dict(sorted(out.items()))

    def total(self) -> dict[int, Fraction]:
        """Achievement -> probability, every kind together.

        >>> s = spread(1, 0)
        >>> sum(s.total().values()) + s.truncated
        Fraction(1, 1)
        """
        return self._p(self.total_weights())


def spread_work(dice: int, critical: int) -> tuple[int, int, int, int]:
    """The chain depth, bits of weights, bits of critical powers and steps of a spread.

    The bits of weights are the number of outcomes times the bit length of the common
    denominator (the size of the result); the bits of critical powers are the size of
    ``C**(dice * (depth + 1))`` (see :func:`chain_weights`); the steps are the number of
    outcomes times the number of dice (its running recurrences).

    >>> spread_work(3, 10)
    (12, 53958, 0, 1173)
    """
    depth = chain_depth(critical, dice)
    reach = dice * (depth + 1)
    outcomes = dice * (10 * (depth + 1) if critical <= 10 else 9) + 1
    bits = outcomes * (reach * 3322 // 1000 + 9)
    faces = 11 - critical
    crit_bits = 0
    if faces > 1:
        crit_bits = ((faces - 1) * reach + 1) * (reach * faces.bit_length() + 9)
    return depth, bits, crit_bits, outcomes * dice


def check_work(dice: int, critical: int) -> int:
    """Raise :class:`LimitError` when a spread is over a work bound; return its depth.

    The bounds are :data:`MAX_WORK_BITS`, :data:`MAX_CRITICAL_BITS` and
    :data:`MAX_WORK_STEPS`; the error's ``bound`` names the one exceeded.

    >>> check_work(10, 7)
    32
    >>> check_work(2, 2)
    Traceback (most recent call last):
    ...
    saikoro.dice._errors.LimitError: ...
    """
    if not 1 <= dice <= MAX_DICE:
        raise LimitError(f"ダイスの数は1〜{MAX_DICE}個にしてください ({dice})", bound="dice")
    depth, bits, crit_bits, steps = spread_work(dice, critical)
    what = f"(ダイス{dice}個・クリティカル値{critical}・連鎖の深さ{depth})"
    for value, bound, name, label in (
        (bits, MAX_WORK_BITS, "chain_bits", "計算量（ビット数）"),
        (crit_bits, MAX_CRITICAL_BITS, "chain_critical_bits", "計算量（冪のビット数）"),
        (steps, MAX_WORK_STEPS, "chain_steps", "計算量（手順数）"),
    ):
        if value > bound:
            raise LimitError(
                f"クリティカルの連鎖の{label}が上限({bound})を超えています: {value} {what}",
                bound=name,
            )
    return depth


def spread(
    dice: int,
    modifier: int,
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> Spread:
    """The exact :class:`Spread` of a check with ``dice`` chained d10 plus ``modifier``.

    Args:
        dice: number of dice (at least 1).
        modifier: added to the dice total (may be negative).
        critical: a die at or above this is a critical and adds a die.
        fumble: the check fumbles when every die is at or below this.

    >>> s = spread(2, 5)
    >>> s.critical_probability
    Fraction(19, 100)
    >>> s.critical[5 + 10 + 1 + 1]
    Fraction(1, 500)
    """
    validate_thresholds(critical, fumble)
    depth = check_work(dice, critical)
    low = min(critical - 1, 10)
    everything = chain_weights(critical, depth, dice)
    denominator = everything.denominator
    scale = denominator // 10**dice
    nc = Poly.dice_sum(dice, low).weights
    fu = Poly.dice_sum(dice, min(fumble, 10)).weights if fumble > 0 else []
    m = modifier
    normal = {dice + i + m: (w - (fu[i] if i < len(fu) else 0)) * scale for i, w in enumerate(nc)}
    off = everything.offset + m
    crits = {
        off + i: w - (nc[i] * scale if i < len(nc) else 0) for i, w in enumerate(everything.weights)
    }
    return Spread(
        dice=dice,
        modifier=modifier,
        denominator=denominator,
        normal_weights={k: w for k, w in normal.items() if w},
        critical_weights={k: w for k, w in crits.items() if w},
        fumble_weights={dice + i + m: w * scale for i, w in enumerate(fu) if w},
        critical_probability=1 - Fraction(low, 10) ** dice,
        fumble_probability=Fraction(min(fumble, 10), 10) ** dice,
        truncated=Fraction(denominator - everything.total(), denominator),
        # a cut-off die showed ``depth + 1`` criticals before stopping; the others 1 or more
        cut_minimum=critical * (depth + 1) + dice + modifier,
    )


@dataclass(frozen=True)
class ChainRoll:
    """One rolled chained check.

    Attributes:
        chains: per starting die, the faces of its chain (``(10, 3)`` = 10 then 3).
        modifier: the fixed part added.
        critical / fumble: whether the check was a critical / a fumble.
    """

    chains: tuple[tuple[int, ...], ...]
    modifier: int
    critical: bool
    fumble: bool

    @property
    def dice_total(self) -> int:
        """Sum of every face rolled."""
        return sum(sum(c) for c in self.chains)

    @property
    def total(self) -> int:
        """The achievement: dice total plus modifier."""
        return self.dice_total + self.modifier

    def dice_text(self) -> str:
        """The dice as BCDice's ``U`` command prints them, modifier appended.

        >>> ChainRoll(((5,), (10, 1), (2,)), 7, True, False).dice_text()
        '5,11[10,1],2+7'
        """
        parts = [
            str(c[0]) if len(c) == 1 else f"{sum(c)}[{','.join(map(str, c))}]" for c in self.chains
        ]
        return ",".join(parts) + signed(self.modifier)


def signed(n: int) -> str:
    """``+n``/``-n``, or the empty string for 0.

    >>> signed(3), signed(-2), signed(0)
    ('+3', '-2', '')
    """
    return f"{n:+d}" if n else ""


def roll_chain(
    source: DiceSource,
    dice: int,
    modifier: int,
    *,
    critical: int = DEFAULT_CRITICAL,
    fumble: int = DEFAULT_FUMBLE,
) -> ChainRoll:
    """Roll a chained check from ``source``, each die's chain to its end in turn.

    >>> r = roll_chain(DiceSource(dice=[(10, 5), (10, 10), (10, 1)]), 2, 7)
    >>> r.chains, r.total, r.critical, r.fumble
    (((5,), (10, 1)), 23, True, False)
    """
    validate_thresholds(critical, fumble)
    if not 1 <= dice <= MAX_DICE:
        raise LimitError(f"ダイスの数は1〜{MAX_DICE}個にしてください ({dice})", bound="dice")
    chains: list[tuple[int, ...]] = []
    used = 0
    for _ in range(dice):
        faces: list[int] = []
        while True:
            used += 1
            if used > MAX_ROLLED:
                raise LimitError("クリティカルの連鎖が長すぎます", bound="chain")
            face = source.roll(10)
            faces.append(face)
            if face < critical:
                break
        chains.append(tuple(faces))
    is_crit = any(c[0] >= critical for c in chains)
    is_fumble = all(f <= fumble for c in chains for f in c)
    return ChainRoll(tuple(chains), modifier, is_crit, is_fumble)
