"""Opposed checks (対抗判定): two checks compared by achievement.

Both succeed: the higher achievement wins; equal achievement: the higher (final)
target wins; still equal: the kind decides (resist: passive side, interfere: active
side, compete: a draw). One side fails: the other wins. Both fail: the seed is silent,
see :class:`BothFail`.

>>> from saikoro.systems._akatsuki.checks import CheckSpec, resolve_check
>>> a = resolve_check(CheckSpec(level=7), 2, 3)
>>> p = resolve_check(CheckSpec(level=6), 1, 3)
>>> resolve_opposed(OpposedKind.RESIST, a, p).winner.value
'能動側の勝ち'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .checks import CheckResult

__all__ = [
    "BothFail",
    "OpposedKind",
    "OpposedResult",
    "Winner",
    "resolve_opposed",
]


class OpposedKind(enum.Enum):
    """The three kinds of opposed check; the value is the command letter."""

    RESIST = "R"
    """抵抗: the victim (passive side) resists the aggressor; full ties go to the passive side."""
    INTERFERE = "I"
    """妨害: someone tries to nullify the active side's act; full ties go to the active side."""
    COMPETE = "C"
    """競争: both do the same thing and compare results; full ties are a draw."""

    @property
    def label(self) -> str:
        """The Japanese name of the kind."""
        return {"R": "抵抗", "I": "妨害", "C": "競争"}[self.value]


class Winner(enum.Enum):
    """Who won an opposed check; the value is the result word."""

    ACTIVE = "能動側の勝ち"
    """The active side (the one whose act is opposed) wins."""
    PASSIVE = "受動側の勝ち"
    """The passive side (the one responding) wins."""
    DRAW = "引き分け"
    """Nobody wins."""


class BothFail(enum.Enum):
    """What happens when both sides fail (the seed does not say)."""

    PASSIVE = "passive"
    """The active side's act does not come about: the passive side wins (compete: draw)."""
    DRAW = "draw"
    """Always a draw."""
    COMPARE = "compare"
    """Compare as if both had succeeded (achievement, then target, then kind)."""


@dataclass(frozen=True)
class OpposedResult:
    """The outcome of an opposed check.

    Attributes:
        winner: who won.
        reason: what decided it, in Japanese (``達成度``, ``目標値``, ``抵抗`` ...).
        active / passive: each side's check.
    """

    winner: Winner
    reason: str
    active: CheckResult
    passive: CheckResult


def _tie_winner(kind: OpposedKind) -> Winner:
    if kind is OpposedKind.RESIST:
        return Winner.PASSIVE
    if kind is OpposedKind.INTERFERE:
        return Winner.ACTIVE
    return Winner.DRAW


def _compare(kind: OpposedKind, a: CheckResult, p: CheckResult) -> tuple[Winner, str]:
    # An unrolled side (automatic failure) ranks below every rolled achievement.
    ka = -(10**9) if a.achievement is None else a.achievement
    kp = -(10**9) if p.achievement is None else p.achievement
    if ka != kp:
        return (Winner.ACTIVE if ka > kp else Winner.PASSIVE), "達成度"
    if a.final_target != p.final_target:
        return (Winner.ACTIVE if a.final_target > p.final_target else Winner.PASSIVE), "目標値"
    return _tie_winner(kind), kind.label


def resolve_opposed(
    kind: OpposedKind,
    active: CheckResult,
    passive: CheckResult,
    both_fail: BothFail = BothFail.PASSIVE,
) -> OpposedResult:
    """Decide an opposed check from the two sides' results.

    >>> from saikoro.systems._akatsuki.checks import CheckSpec, resolve_check
    >>> a = resolve_check(CheckSpec(level=7), 3, 3)
    >>> p = resolve_check(CheckSpec(level=6), 2, 3)
    >>> r = resolve_opposed(OpposedKind.COMPETE, a, p)
    >>> r.winner.value, r.reason
    ('能動側の勝ち', '目標値')
    >>> q = resolve_check(CheckSpec(level=7), 2, 4)
    >>> resolve_opposed(OpposedKind.RESIST, a, q).winner.value
    '受動側の勝ち'
    """
    if active.success and passive.success:
        winner, reason = _compare(kind, active, passive)
    elif active.success:
        winner, reason = Winner.ACTIVE, "受動側の失敗"
    elif passive.success:
        winner, reason = Winner.PASSIVE, "能動側の失敗"
    elif both_fail is BothFail.COMPARE:
        winner, reason = _compare(kind, active, passive)
    elif both_fail is BothFail.DRAW or kind is OpposedKind.COMPETE:
        winner, reason = Winner.DRAW, "両者失敗"
    else:
        winner, reason = Winner.PASSIVE, "両者失敗"
    return OpposedResult(winner, reason, active, passive)
