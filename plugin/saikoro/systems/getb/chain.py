"""Chained d10 checks: the dice mechanics shared by every GETB check.

A GETB check rolls some ten-sided dice. A die showing the critical value or more is a
critical and brings one more die, which may chain again (exactly BCDice's ``xU10[c]``:
each die's chain is rolled to its end before the next die). The check fumbles when
every die shows the fumble value or less. The plain check is the one-die case.

The exact spread of a check splits the achievement by kind (normal, critical, fumble).
Chains are unbounded, so very long chains are cut off and their mass is reported as
``truncated``; the critical and fumble probabilities themselves are exact.

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

from saikoro.dice import DiceSource, LimitError, ParseError

__all__ = [
    "DEFAULT_CRITICAL",
    "DEFAULT_FUMBLE",
    "MAX_DICE",
    "TRUNCATION",
    "ChainRoll",
    "Spread",
    "chain_depth",
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
_MAX_DEPTH = 300


def validate_thresholds(critical: int, fumble: int) -> None:
    """Raise :class:`ParseError` unless the critical and fumble values make sense.

    A critical value of 1 would make every die chain for ever; a fumble value at or
    above the critical value would let one die be both.

    >>> validate_thresholds(10, 1)
    >>> validate_thresholds(1, 0)
    Traceback (most recent call last):
    ...
    saikoro.dice.errors.ParseError: クリティカル値は2以上にしてください (1)
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
    p = Fraction(max(0, 11 - critical), 10)
    if p == 0:
        return 0
    depth = 0
    while dice * p ** (depth + 1) > TRUNCATION and depth < _MAX_DEPTH:
        depth += 1
    return depth


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


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, wa in enumerate(a):
        if wa:
            for j, wb in enumerate(b):
                out[i + j] += wa * wb
    return out


def _power(a: list[int], n: int) -> list[int]:
    result = [1]
    base = a
    while n:
        if n & 1:
            result = _convolve(result, base)
        n >>= 1
        if n:
            base = _convolve(base, base)
    return result


def _faces(lo: int, hi: int) -> list[int]:
    """Weight 1 on each face lo..hi (index = face)."""
    return [1 if lo <= i <= hi else 0 for i in range(hi + 1)]


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
    if not 1 <= dice <= MAX_DICE:
        raise LimitError(f"ダイスの数は1〜{MAX_DICE}個にしてください ({dice})", bound="dice")
    low = min(critical - 1, 10)
    depth = chain_depth(critical, dice)
    stop = _faces(1, low)
    # one die's chain followed to ``depth`` extra dice: weights over 10**(depth + 1)
    chain = stop
    if critical <= 10:
        crit_face = _faces(critical, 10)
        chain = [0]  # nothing followed yet
        for j in range(depth + 1):
            nxt = _convolve(crit_face, chain)
            for face, w in enumerate(stop):
                if w:
                    nxt[face] += 10**j
            chain = nxt
        per_die = 10 ** (depth + 1)
    else:
        per_die = 10
    denominator = per_die**dice
    everything = _power(chain, dice)
    scale_nc = denominator // 10**dice
    no_crit = [w * scale_nc for w in _power(stop, dice)]
    fumbles = [w * scale_nc for w in _power(_faces(1, fumble), dice)] if fumble > 0 else []
    m = modifier
    normal = {
        k + m: w - (fumbles[k] if k < len(fumbles) else 0)
        for k, w in enumerate(no_crit)
    }
    crits = {
        k + m: w - (no_crit[k] if k < len(no_crit) else 0) for k, w in enumerate(everything)
    }
    return Spread(
        dice=dice,
        modifier=modifier,
        denominator=denominator,
        normal_weights={k: w for k, w in normal.items() if w},
        critical_weights={k: w for k, w in crits.items() if w},
        fumble_weights={k + m: w for k, w in enumerate(fumbles) if w},
        critical_probability=1 - Fraction(low, 10) ** dice,
        fumble_probability=Fraction(min(fumble, 10), 10) ** dice,
        truncated=Fraction(denominator - sum(everything), denominator),
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
            str(c[0]) if len(c) == 1 else f"{sum(c)}[{','.join(map(str, c))}]"
            for c in self.chains
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
