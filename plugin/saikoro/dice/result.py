"""The two results of the engine: a :class:`Roll` and its exact :class:`Odds`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Odds", "Roll"]


@dataclass(frozen=True)
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

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Odds:
    """Exact odds of a command.

    Attributes:
        command: the command as understood.
        distribution: outcome -> exact probability, sorted by outcome. Outcomes are ints
            (a total, a success count, damage) or strings (``choice``, contest results).
        success: probability of success where the command has a target, else ``None``.
        truncated: probability mass dropped by truncating an unbounded process.
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

    @property
    def failure(self) -> Fraction | None:
        """Probability of failure (the retained mass not counted as success)."""
        if self.success is None:
            return None
        return 1 - self.truncated - self.success

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
            return None if p is None else f"{p.numerator}/{p.denominator}"

        mean = self.mean
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
        }
