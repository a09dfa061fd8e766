"""Verdicts: how hard a win rate is, and whether a figure meets its ``balance.win`` target.

>>> [verdict(p) for p in (0.95, 0.75, 0.5, 0.2)]
['易しい', '標準', '厳しい', '非常に厳しい']

:func:`judge_target` is the one balance gate: ``saikoro validate`` and the site's バランス
section (and the build's log) both ask it, so they never disagree. A simulated figure
misses its target only when its whole 95 % interval lies outside the range (an exact value:
when it does); an interval across a bound is "not yet certain", with the battles that
would settle it.

>>> from fractions import Fraction as F
>>> t = (F(1, 2), F(4, 5))
>>> judge_target(t, win=0.822, low=0.782, high=0.857, battles=400).state
'uncertain'
>>> judge_target(t, win=0.95, low=0.926, high=0.966, battles=400).state
'out'
>>> judge_target(t, win=0.95, low=0.926, high=0.966, battles=400, exact=F(7, 10)).state
'in'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ._stats import wilson_rate

__all__ = ["MAX_DECIDE", "VERDICTS", "TargetVerdict", "judge_target", "verdict"]

VERDICTS: tuple[tuple[float, str, str], ...] = (
    (0.90, "易しい", "90% 以上：ほぼ負けない。緊張感を出すなら敵を強めてよい。"),
    (0.65, "標準", "65% 以上 90% 未満：たいてい勝てるが、出目や判断次第で負けもある。"),
    (0.35, "厳しい", "35% 以上 65% 未満：勝ち負けが半々に近い。"),
    (0.0, "非常に厳しい", "35% 未満：負けるほうが多い。"),
)
"""(lowest win rate, verdict, explanation), from the easiest down."""


def verdict(win: float) -> str:
    """The verdict for a win rate ``win`` (0..1)."""
    for low, word, _ in VERDICTS:
        if win >= low:
            return word
    return VERDICTS[-1][1]


TargetState = Literal["in", "uncertain", "out"]

MAX_DECIDE = 100_000
"""The most battles :attr:`TargetVerdict.needed` names (``balance.battles`` at most)."""


@dataclass(frozen=True)
class TargetVerdict:
    """Whether a figure meets its ``balance.win`` target.

    Attributes:
        state: ``in`` (the exact value, or the whole 95 % interval, inside the range),
            ``out`` (outside it: the target is missed) or ``uncertain`` (the interval
            crosses a bound of the range: more battles would tell).
        target: the range (low, high).
        exact: whether the figure is the exact value (then never ``uncertain``).
        needed: for ``uncertain``, about how many battles would settle it at the same win
            rate (rounded up to two significant digits); ``None`` when not even
            :data:`MAX_DECIDE` would (the rate sits on a bound), or when not uncertain.
    """

    state: TargetState
    target: tuple[Fraction, Fraction]
    exact: bool
    needed: int | None = None

    @property
    def word(self) -> str:
        """The state in words."""
        return {"in": "範囲内", "uncertain": "まだ確かでない", "out": "範囲外"}[self.state]


def judge_target(
    target: tuple[Fraction, Fraction],
    *,
    win: float,
    low: float,
    high: float,
    battles: int,
    exact: Fraction | None = None,
) -> TargetVerdict:
    """The verdict of a win rate against ``target``: the exact value ``exact`` where there
    is one, else the estimate ``win`` with its 95 % interval ``low``..``high`` over
    ``battles`` battles."""
    lo, hi = target
    if exact is not None:
        return TargetVerdict("in" if lo <= exact <= hi else "out", target, exact=True)
    if high < lo or low > hi:
        return TargetVerdict("out", target, exact=False)
    if low >= lo and high <= hi:
        return TargetVerdict("in", target, exact=False)
    return TargetVerdict(
        "uncertain", target, exact=False, needed=_battles_to_decide(win, target, battles)
    )


def _decided(p: float, target: tuple[Fraction, Fraction], n: int) -> bool:
    """Whether the interval of rate ``p`` over ``n`` battles lies wholly in or out of it."""
    low, high = wilson_rate(p, n)
    return high < target[0] or low > target[1] or (low >= target[0] and high <= target[1])


def _battles_to_decide(p: float, target: tuple[Fraction, Fraction], battles: int) -> int | None:
    """The fewest battles (two significant digits, rounded up) after which rate ``p`` would
    be decided; ``None`` beyond :data:`MAX_DECIDE`."""
    n = max(1, battles)
    while not _decided(p, target, n):
        if n >= MAX_DECIDE:
            return None
        n = min(MAX_DECIDE, n * 2)
    low, high = max(1, battles), n  # decided at high (the interval narrows as n grows)
    while low < high:
        mid = (low + high) // 2
        if _decided(p, target, mid):
            high = mid
        else:
            low = mid + 1
    step: int = 10 ** max(0, int(math.log10(high)) - 1)
    return min(MAX_DECIDE, -(-high // step) * step)
