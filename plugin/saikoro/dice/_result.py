"""The two results of the engine: a :class:`Roll` and its exact :class:`Odds`.

Both are frozen, slotted dataclasses: keyword or positional construction, equality,
``repr``, ``dataclasses.replace`` (and a ``replace`` method), pickling.

They were once written by hand to keep :mod:`dataclasses` out of ``import saikoro``.
Measured (``bench/bench_import.py``, December 2026): Pyodide loads :mod:`dataclasses`
and :mod:`inspect` at start-up, so in the browser the decorator costs about 2 ms, about
what the shorter module saves in compiling; in CPython ``import saikoro`` takes about
7 ms more (15 -> 22 ms), which the first system roll used to pay anyway.

>>> r = Roll("2D6", "(2D6) ＞ 7[3,4] ＞ 7", value=7)
>>> r.replace(secret=True).secret, r.secret
(True, False)
>>> import dataclasses
>>> dataclasses.replace(r, dice=((6, 3), (6, 4))).dice
((6, 3), (6, 4))
>>> [f.name for f in dataclasses.fields(Odds)][:3]
['command', 'distribution', 'success']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ._digits import fraction_text

__all__ = ["Odds", "Roll"]


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll, with the exact text BCDice prints for the same dice.

    Attributes:
        command: the command as understood (normalised, comment removed).
        text: BCDice-style result text, e.g. ``(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功``.
        secret: the command had the secret prefix ``S``.
        success / failure / critical / fumble: result flags, as BCDice sets them.
        dice: every die used, as ``(sides, value)``; feeding them back replays the roll.
        value: the main numeric result where there is one (total, success count...).
        outcome: a system's result word where it has one (``粉砕``, ``回避`` ...).
    """

    command: str
    text: str
    secret: bool = False
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    dice: tuple[tuple[int, int], ...] = ()
    value: int | str | None = None
    outcome: str | None = None

    def replace(self, **changes: Any) -> Roll:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact odds of a command.

    Attributes:
        command: the command as understood.
        distribution: outcome -> exact probability, sorted by outcome. Outcomes are ints
            (a total, a success count, damage) or strings (``choice``, contest results).
        success: probability of success where the command has a target, else ``None``.
        truncated: probability mass dropped by truncating an unbounded process.
        truncated_success: the part of ``truncated`` known to be successes (e.g. cut-off
            chains of criticals whose totals must beat the target); it is already counted
            in ``success``, so ``success`` is exact while the distribution still sums to
            ``1 - truncated``. Usually 0.
        critical / fumble: probabilities of those flags where the command has them.
        events: further named probabilities (system result words, e.g. ``粉砕``).
        label: what the outcomes measure (``合計``, ``成功数``, ``ダメージ`` ...).
    """

    command: str
    distribution: Mapping[int | str, Fraction]
    success: Fraction | None = None
    truncated: Fraction = Fraction(0)
    critical: Fraction | None = None
    fumble: Fraction | None = None
    events: Mapping[str, Fraction] = field(default_factory=dict)
    label: str = "合計"
    truncated_success: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.events is None:  # accepted for the hand-written class it replaces
            object.__setattr__(self, "events", {})

    def replace(self, **changes: Any) -> Odds:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    @property
    def failure(self) -> Fraction | None:
        """Probability of failure (the retained mass not counted as success)."""
        if self.success is None:
            return None
        return 1 - self.truncated - self.success + self.truncated_success

    @property
    def mean(self) -> Fraction | None:
        """Mean of the numeric outcomes (renormalised over the retained mass), else ``None``."""
        items = list(self.distribution.items())
        if not items or not all(isinstance(k, int) for k, _ in items):
            return None
        total = sum((p for _, p in items), Fraction(0))
        if not total:
            return None
        return sum((Fraction(k) * p for k, p in items if isinstance(k, int)), Fraction(0)) / total

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict with every probability as an exact ``"n/d"`` string."""

        def q(p: Fraction | None) -> str | None:
            return None if p is None else fraction_text(p)

        mean = self.mean
        extra = {"truncated_success": q(self.truncated_success)} if self.truncated_success else {}
        return {
            "command": self.command,
            "label": self.label,
            "distribution": {str(k): q(p) for k, p in self.distribution.items()},
            "success": q(self.success),
            "failure": q(self.failure),
            "critical": q(self.critical),
            "fumble": q(self.fumble),
            "events": {k: q(p) for k, p in self.events.items()},
            "mean": q(mean),
            "truncated": q(self.truncated),
            **extra,
        }
