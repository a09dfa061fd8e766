"""Counting battles and summarising them: the tally, the result and its intervals.

A :class:`Tally` is what one chunk of battles leaves behind (plain integers, so that
chunks add up in any order to the same figures); :func:`summarise` turns the sum into a
:class:`BalanceResult`, with :func:`wilson` intervals.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from saikoro.dice import InternalError
from saikoro.systems import OptionValue

from ._errors import BalanceError
from ._side import Battle, Condition
from ._simulator import End, Note

if TYPE_CHECKING:
    from ._model import Encounter

__all__ = [
    "Z95",
    "BalanceResult",
    "EndFigures",
    "PcFigures",
    "RulingUsed",
    "SideResult",
    "Tally",
    "summarise",
    "wilson",
    "wilson_rate",
]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 and n.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson(0, 0), wilson(10, 10)[1]
    ((0.0, 1.0), 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    return wilson_rate(successes / trials, trials, z)


def wilson_rate(p: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """:func:`wilson` of a rate ``p`` observed over ``trials`` (``trials`` at least 1): the
    interval the same rate would have after that many trials.

    >>> [round(x, 4) for x in wilson_rate(0.5, 100)]
    [0.4038, 0.5962]
    """
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high


@dataclass
class Tally:
    """Integer counts over some battles; ``+`` merges two tallies.

    Attributes:
        battles: battles played.
        wins: battles whose main mission succeeded.
        rounds: rounds (turns, cuts, checks) played -> number of battles.
        downed: per PC (by index), battles in which it was downed (HP 0, failed...).
        dealt / taken: damage the party dealt / took, summed over battles.
        actions: enemy action name -> damage it dealt to the party, summed.
        sums: extra per-system figures (cards spent, national power...), summed.
        checks: the side missions' conditions judged on every battle (see
            :mod:`~saikoro.balance._side`); ``side[i]``: battles ``checks[i]`` held in.
        ends: how battles ended (a key of the simulator's ``ends``) -> number of battles.
    """

    pcs: int = 0
    battles: int = 0
    wins: int = 0
    rounds: Counter[int] = field(default_factory=Counter)
    downed: list[int] = field(default_factory=list)
    dealt: int = 0
    taken: int = 0
    actions: Counter[str] = field(default_factory=Counter)
    sums: Counter[str] = field(default_factory=Counter)
    checks: tuple[Condition, ...] = ()
    side: list[int] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not self.downed:
            self.downed = [0] * self.pcs
        if not self.side:
            self.side = [0] * len(self.checks)

    def add(self, b: Battle) -> None:
        """Count the battle ``b`` (the end of a step machine)."""
        self.battles += 1
        self.wins += b.win
        self.ends[b.end or ("win" if b.win else "lost")] += 1
        self.rounds[b.rounds] += 1
        for i, d in enumerate(b.downed):
            self.downed[i] += d
        self.dealt += b.dealt
        self.taken += b.taken
        for key, value in b.actions:
            self.actions[key] += value
        for key, value in b.sums:
            self.sums[key] += value
        for i, c in enumerate(self.checks):
            self.side[i] += c.holds(b)

    def __add__(self, other: Tally) -> Tally:
        if self.pcs != other.pcs:
            raise BalanceError("tallies of different parties cannot be merged")
        if self.checks != other.checks:
            raise BalanceError("tallies judging different side missions cannot be merged")
        summed: dict[str, Any] = {}
        for f in fields(self):  # the counts (lists item by item)
            if f.compare and f.name not in ("pcs", "checks"):
                a, b = getattr(self, f.name), getattr(other, f.name)
                summed[f.name] = (
                    [x + y for x, y in zip(a, b, strict=True)] if type(a) is list else a + b
                )
        return Tally(pcs=self.pcs, checks=self.checks, **summed)


@dataclass(frozen=True)
class PcFigures:
    """One PC's figures: P(downed) with its 95 % interval."""

    name: str
    downed: float
    downed_low: float
    downed_high: float

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON."""
        return asdict(self)


@dataclass(frozen=True)
class EndFigures:
    """How often battles ended one way (a key of the simulator's ``ends``), with its interval."""

    key: str
    label: str
    win: bool
    count: int
    rate: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON (``key`` as ``end``)."""
        return {"end" if k == "key" else k: v for k, v in asdict(self).items()}


@dataclass(frozen=True)
class RulingUsed:
    """A ruling a figure relies on: its key and title, the option's value if it is one."""

    key: str
    title: str
    value: OptionValue | None = None
    default: bool = True

    def to_json(self) -> dict[str, Any]:
        """The ruling as JSON (``value`` ``null`` for a reading that is not an option)."""
        return asdict(self)


@dataclass(frozen=True)
class SideResult:
    """One side mission's figures: P(achieved) with its 95 % Wilson interval.

    ``modelled`` is false when the mission has no ``check:`` (or one this encounter cannot
    judge, see ``reason``): then there is no figure at all, never a guessed one.
    ``exact`` is P(achieved) solved exactly, where the simulator can.
    """

    index: int
    text: str
    modelled: bool
    check: Mapping[str, Any] | None = None
    successes: int = 0
    battles: int = 0
    rate: float | None = None
    low: float | None = None
    high: float | None = None
    exact: Fraction | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON (``rate``, ``low``, ``high`` are ``null`` when not modelled)."""
        out = {
            "success" if k == "text" else k: v
            for k, v in asdict(self).items()
            if k not in ("exact", "reason")
        }
        if self.exact is not None:
            out["exact"] = float(self.exact)
            out["exact_fraction"] = str(self.exact)
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class BalanceResult:
    """What simulating (and, where small, solving) one encounter gave.

    Attributes:
        scenario / system: the scenario id and system id.
        party: the party's label (``scenario``, ``reference-4``, a file name).
        tactics: the PCs' and enemies' policies (``focus / hunt``).
        battles / seed: how many battles were played, from which seed.
        win / win_low / win_high: P(main mission) estimate and its 95 % Wilson interval.
        rounds: rounds played -> number of battles.
        pcs: per-PC figures.
        dealt_per_round / taken_per_round: the party's damage dealt and taken per round.
        dangerous: the enemy action that dealt the party the most damage, and that damage
            per battle (``None`` when no enemy dealt damage).
        means: extra per-battle means (cards earned, national power...).
        exact: P(win) solved exactly, when the state space is small.
        exact_figures: further exact figures (middle-phase odds...).
        interrupted: the run was stopped (Ctrl-C) before ``battles`` were all played.
        notes: what the simulator did not model for this encounter.
        side: each side mission's figures (in the scenario's order).
        dangerous_enemy: the display name of the enemy whose action ``dangerous`` is.
        ends: how the battles ended (every end the simulator knows, in its order).
        round_limit / round_limit_written: the round limit in force, and whether the
            scenario wrote it (else the system's default).
        rulings: the rulings the figures rely on (options with their values in force).
        exact_reason: why there is no exact value (``None`` when there is one, or when the
            exact solution was not asked for).
        requested: the battles asked for (``battles`` is fewer when the run was cut or
            interrupted; 0: not recorded).
        cut: the time limit, in seconds, that stopped the battles before ``requested``
            were played (``None``: not cut).
    """

    scenario: str
    system: str
    party: str
    tactics: str
    battles: int
    seed: int
    win: float
    win_low: float
    win_high: float
    rounds: dict[int, int]
    pcs: tuple[PcFigures, ...]
    dealt_per_round: float
    taken_per_round: float
    dangerous: tuple[str, float] | None
    means: dict[str, float]
    exact: Fraction | None = None
    exact_figures: dict[str, Fraction] = field(default_factory=dict)
    interrupted: bool = False
    notes: tuple[Note, ...] = ()
    side: tuple[SideResult, ...] = ()
    dangerous_enemy: str | None = None
    ends: tuple[EndFigures, ...] = ()
    round_limit: int | None = None
    round_limit_written: bool = False
    rulings: tuple[RulingUsed, ...] = ()
    exact_reason: str | None = None
    requested: int = 0
    cut: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (fractions as ``"p/q"`` strings beside their float)."""
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "system": self.system,
            "party": self.party,
            "tactics": self.tactics,
            "battles": self.battles,
            "seed": self.seed,
            "win": self.win,
            "win_low": self.win_low,
            "win_high": self.win_high,
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "pcs": [p.to_json() for p in self.pcs],
            "dealt_per_round": self.dealt_per_round,
            "taken_per_round": self.taken_per_round,
            "most_dangerous": (
                None
                if self.dangerous is None
                else {
                    "action": self.dangerous[0],
                    "enemy": self.dangerous[0].rpartition(":")[0] or None,
                    "enemy_name": self.dangerous_enemy,
                    "name": self.dangerous[0].rpartition(":")[2],
                    "damage_per_battle": self.dangerous[1],
                }
            ),
            "means": dict(self.means),
            "interrupted": self.interrupted,
            "notes": [{"key": n.key, "text": n.text} for n in self.notes],
            "side": [s.to_json() for s in self.side],
            "ends": [e.to_json() for e in self.ends],
            "round_limit": self.round_limit,
            "round_limit_written": self.round_limit_written,
            "rulings": [r.to_json() for r in self.rulings],
            "exact_reason": self.exact_reason,
            "requested": self.requested or self.battles,
            "cut_after_seconds": self.cut,
        }
        if self.exact is not None:
            out["exact"] = float(self.exact)
            out["exact_fraction"] = str(self.exact)
        if self.exact_figures:
            out["exact_figures"] = {
                k: {"value": float(v), "fraction": str(v)} for k, v in self.exact_figures.items()
            }
        return out


def summarise(
    tally: Tally,
    enc: Encounter,
    *,
    side_exact: Mapping[int, Fraction] | None = None,
    ends: Mapping[str, End] | None = None,
    **given: Any,
) -> BalanceResult:
    """The :class:`BalanceResult` of ``tally``, the battles of ``enc`` (its side missions
    with a condition are ``tally.checks`` in order); ``given``: the fields the battles do
    not tell (``tactics``, ``seed``, ``exact``, ``notes``...), kept as they are.

    ``side_exact``: side mission index -> P(achieved) solved exactly.
    ``ends``: the simulator's ends (every one is listed, in order, with its count).

    Raises:
        InternalError: a battle ended in a way ``ends`` does not name, or as a win that is
            not one (the simulator and its words disagree).
    """
    n = tally.battles
    low, high = wilson(tally.wins, n)
    pcs = []
    system = enc.system
    for name, count in zip(enc.party.names, tally.downed, strict=True):
        pcs.append(PcFigures(name, count / n if n else 0.0, *wilson(count, n)))
    total_rounds = sum(k * v for k, v in tally.rounds.items())
    dangerous = None
    if tally.actions:
        name, dmg = max(tally.actions.items(), key=lambda kv: (kv[1], kv[0]))
        if dmg > 0:
            dangerous = (name, dmg / n)
    sides = []
    counts = iter(tally.side)
    for spec in enc.side:
        if spec.condition is None:
            sides.append(SideResult(spec.index, spec.text, False, spec.check, reason=spec.reason))
            continue
        k = next(counts)
        lo, hi = wilson(k, n)
        sides.append(
            SideResult(
                spec.index,
                spec.text,
                True,
                spec.check,
                successes=k,
                battles=n,
                rate=k / n if n else None,
                low=lo if n else None,
                high=hi if n else None,
                exact=(side_exact or {}).get(spec.index),
            )
        )
    enemy = dangerous[0].rpartition(":")[0] if dangerous else ""
    known: dict[str, End] = dict(ends or {})
    for key in tally.ends:
        if key not in known and key in ("win", "lost"):  # a simulator not telling ends apart
            known[key] = End("勝利" if key == "win" else "負け", key == "win")
        if key not in known:
            raise InternalError(f"{system}: battles ended as {key!r}, not one of its ends")
    if sum(c for k, c in tally.ends.items() if known[k].win) != tally.wins:
        raise InternalError(f"{system}: the wins and the winning ends disagree")
    end_figures = []
    for key, how in known.items():
        count = tally.ends.get(key, 0)
        rate = count / n if n else 0.0
        end_figures.append(EndFigures(key, how.label, how.win, count, rate, *wilson(count, n)))
    return BalanceResult(
        scenario=enc.scenario,
        system=system,
        party=enc.party.label,
        battles=n,
        win=tally.wins / n if n else 0.0,
        win_low=low,
        win_high=high,
        rounds=dict(sorted(tally.rounds.items())),
        pcs=tuple(pcs),
        dealt_per_round=tally.dealt / total_rounds if total_rounds else 0.0,
        taken_per_round=tally.taken / total_rounds if total_rounds else 0.0,
        dangerous=dangerous,
        means={k: v / n for k, v in sorted(tally.sums.items())} if n else {},
        side=tuple(sides),
        dangerous_enemy={e.id: e.name for e in enc.enemies}.get(enemy) if enemy else None,
        ends=tuple(end_figures),
        **given,
    )
