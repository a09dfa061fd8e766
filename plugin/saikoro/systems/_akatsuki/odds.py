"""Exact odds of checks and opposed checks (by enumerating the 36 rolls of 2D6).

>>> from saikoro.systems._akatsuki.checks import CheckSpec
>>> check_odds(CheckSpec(level=7)).success
Fraction(7, 12)
>>> check_odds(CheckSpec(level=7, specialty=True)).success
Fraction(2, 3)
>>> seven = CheckSpec(level=7)
>>> opposed_dist(seven, seven, OpposedKind.COMPETE).probability("引き分け")
Fraction(79, 324)
"""

from __future__ import annotations

from fractions import Fraction

from saikoro.dice import Dist, Odds

from .checks import CheckResult, CheckRules, CheckSpec, precheck, resolve_check
from .opposed import BothFail, OpposedKind, Winner, resolve_opposed

__all__ = [
    "check_odds",
    "enumerate_check",
    "opposed_dist",
    "opposed_odds",
    "outcome_dist",
    "success_probability",
]

ROLLS = 36
"""Equally likely ordered rolls of 2D6."""

_DECIDED = {"達成度": "達成度で決着", "目標値": "目標値で決着"}


def enumerate_check(
    spec: CheckSpec, rules: CheckRules | None = None
) -> tuple[tuple[CheckResult, int], ...]:
    """Every distinct result of the check with its weight out of 36.

    >>> from saikoro.systems._akatsuki.checks import CheckSpec
    >>> [w for _, w in enumerate_check(CheckSpec(level=0))]
    [36]
    >>> sum(w for _, w in enumerate_check(CheckSpec(level=7, specialty=True)))
    36
    """
    early = precheck(spec)
    if early is not None:
        return ((early, ROLLS),)
    counts: dict[CheckResult, int] = {}
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            r = resolve_check(spec, d1, d2, rules)
            counts[r] = counts.get(r, 0) + 1
    return tuple(counts.items())


def success_probability(spec: CheckSpec, rules: CheckRules | None = None) -> Fraction:
    """P(the check succeeds).

    >>> from saikoro.systems._akatsuki.checks import CheckSpec
    >>> success_probability(CheckSpec(level=2, specialty=True))
    Fraction(1, 6)
    """
    return Fraction(sum(w for r, w in enumerate_check(spec, rules) if r.success), ROLLS)


def outcome_dist(spec: CheckSpec, rules: CheckRules | None = None) -> Dist[str]:
    """The distribution of the result word (成功 / 失敗 / 自動失敗 / 判定不可).

    >>> from saikoro.systems._akatsuki.checks import CheckSpec
    >>> outcome_dist(CheckSpec(level=6, specialty=True)).probabilities()
    {'失敗': Fraction(1, 2), '成功': Fraction(1, 2)}
    """
    weights: dict[str, int] = {}
    for r, w in enumerate_check(spec, rules):
        weights[r.status.value] = weights.get(r.status.value, 0) + w
    return Dist(weights, ROLLS)


def _outcome_key(r: CheckResult) -> int | str:
    if r.success and r.achievement is not None:
        return r.achievement
    return r.status.value


def check_odds(spec: CheckSpec, rules: CheckRules | None = None, *, command: str = "") -> Odds:
    """Exact odds of one check.

    The distribution is over the achievement of a success (an int) and the words
    ``失敗`` / ``自動失敗`` / ``判定不可`` for the other results. Events: ``ゾロ目`` (a
    doublet with effect), ``覚醒札獲得`` (α), ``目標値超過で成功`` (β) and, with
    after-roll boosts, ``事後ブースト使用``.

    >>> from saikoro.systems._akatsuki.checks import CheckSpec
    >>> o = check_odds(CheckSpec(level=4, specialty=True))
    >>> o.distribution[0], o.events["目標値超過で成功"]
    (Fraction(1, 18), Fraction(1, 9))
    """
    weights: dict[int | str, int] = {}
    events = {"ゾロ目": 0, "覚醒札獲得": 0, "目標値超過で成功": 0, "事後ブースト使用": 0}
    success = 0
    for r, w in enumerate_check(spec, rules):
        key = _outcome_key(r)
        weights[key] = weights.get(key, 0) + w
        success += w if r.success else 0
        events["ゾロ目"] += w if r.doublet else 0
        events["覚醒札獲得"] += w if r.alpha else 0
        events["目標値超過で成功"] += w if r.beta else 0
        events["事後ブースト使用"] += w if r.cards_spent else 0
    if not spec.specialty:
        for name in ("ゾロ目", "覚醒札獲得", "目標値超過で成功"):
            del events[name]
    if not spec.after_cards:
        del events["事後ブースト使用"]
    ordered = sorted(weights.items(), key=lambda kv: (isinstance(kv[0], str), kv[0]))
    return Odds(
        command=command,
        distribution={k: Fraction(w, ROLLS) for k, w in ordered},
        success=Fraction(success, ROLLS),
        events={k: Fraction(w, ROLLS) for k, w in events.items()},
        label="達成度",
    )


def opposed_dist(
    active: CheckSpec,
    passive: CheckSpec,
    kind: OpposedKind,
    *,
    rules: CheckRules | None = None,
    both_fail: BothFail = BothFail.PASSIVE,
) -> Dist[str]:
    """The distribution of the winner word of an opposed check.

    >>> from saikoro.systems._akatsuki.checks import CheckSpec
    >>> d = opposed_dist(CheckSpec(level=1), CheckSpec(level=6), OpposedKind.RESIST)
    >>> d.probabilities()
    {'受動側の勝ち': Fraction(1, 1)}
    """
    weights: dict[str, int] = {}
    for ra, wa in enumerate_check(active, rules):
        for rp, wp in enumerate_check(passive, rules):
            w = resolve_opposed(kind, ra, rp, both_fail).winner.value
            weights[w] = weights.get(w, 0) + wa * wp
    return Dist(weights, ROLLS * ROLLS)


def opposed_odds(
    active: CheckSpec,
    passive: CheckSpec,
    kind: OpposedKind,
    *,
    rules: CheckRules | None = None,
    both_fail: BothFail = BothFail.PASSIVE,
    command: str = "",
) -> Odds:
    """Exact odds of an opposed check: winner words, ``success`` = P(active side wins).

    Events: each side's success alone and together, both failing, and how a decision
    between two successes was reached (``達成度で決着``, ``目標値で決着``, ``種別で決着``).

    >>> from saikoro.systems._akatsuki.checks import CheckSpec
    >>> o = opposed_odds(CheckSpec(level=7), CheckSpec(level=7), OpposedKind.RESIST)
    >>> o.success == o.distribution["能動側の勝ち"]
    True
    """
    a_results = enumerate_check(active, rules)
    p_results = enumerate_check(passive, rules)
    winners = {w.value: 0 for w in Winner}
    names = ("両者成功", "能動側のみ成功", "受動側のみ成功", "両者失敗")
    ev = dict.fromkeys((*names, "達成度で決着", "目標値で決着", "種別で決着"), 0)
    for ra, wa in a_results:
        for rp, wp in p_results:
            w = wa * wp
            res = resolve_opposed(kind, ra, rp, both_fail)
            winners[res.winner.value] += w
            ev[names[(not ra.success) * 2 + (not rp.success)]] += w
            if ra.success and rp.success:
                ev[_DECIDED.get(res.reason, "種別で決着")] += w
    total = ROLLS * ROLLS
    return Odds(
        command=command,
        distribution={k: Fraction(v, total) for k, v in winners.items() if v},
        success=Fraction(winners[Winner.ACTIVE.value], total),
        events={k: Fraction(v, total) for k, v in ev.items()},
        label="勝者",
    )
