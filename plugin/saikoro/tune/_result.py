"""What tuning finds, as data: each number's :class:`Sensitivity`, the :class:`Suggestion`
edits confirmed, the whole :class:`TuneResult` (the search itself is :mod:`._search`; the
terminal's words, :mod:`._cli`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from saikoro.balance import verdict

from ._change import Change
from ._measure import Measure

__all__ = ["Sensitivity", "Suggestion", "TuneResult"]


@dataclass(frozen=True)
class Sensitivity:
    """How much the win rate moves when one number moves by one step.

    The figures compared are ``simulate``'s: the scenario with the number at ``low_value``
    (win rate ``win_low_value``) and at ``high_value`` (``win_high_value``), each with
    ``battles`` battles seeded ``seed`` (0 battles: exact values).
    """

    path: str
    label: str
    value: int
    step: int
    per_step: float
    """Change of the win rate per step up (positive: the number helps the PCs)."""
    low: float = 0.0
    high: float = 0.0
    """The 95 % interval of :attr:`per_step`."""
    settled: bool = True
    """Whether the sign is known (the interval leaves out 0, or the exact change is 0)."""
    low_value: int = 0
    high_value: int = 0
    win_low_value: float = 0.0
    win_high_value: float = 0.0
    battles: int = 0
    seed: int = 0
    fixed: str | None = None
    """Why tuning leaves this number alone (the mission states it)."""
    unmoved: bool = False
    """Moving it changed no battle's outcome (or left the exact value as it was)."""

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "path": self.path,
            "label": self.label,
            "value": self.value,
            "step": self.step,
            "per_step": self.per_step,
            "per_step_low": self.low,
            "per_step_high": self.high,
            "settled": self.settled,
            "compared": {
                "values": [self.low_value, self.high_value],
                "wins": [self.win_low_value, self.win_high_value],
                "battles": self.battles,
                "seed": self.seed,
            },
            "fixed": self.fixed,
            "unmoved": self.unmoved,
        }


@dataclass(frozen=True)
class Suggestion:
    """Edits that bring the win rate into the range, with the figure that shows it."""

    changes: tuple[Change, ...]
    measure: Measure
    confirmed: bool
    size: float
    """The edits' relative size (what ranks suggestions: smaller first)."""

    @property
    def verdict(self) -> str:
        """The verdict of the new figure."""
        return verdict(self.measure.value)

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        m = self.measure
        out: dict[str, Any] = {
            "changes": [c.to_json() for c in self.changes],
            "win": m.win,
            "win_low": m.low,
            "win_high": m.high,
            "battles": m.battles,
            "seed": m.seed,
            "confirmed": self.confirmed,
            "verdict": self.verdict,
        }
        if m.exact is not None:
            out["exact"] = float(m.exact)
            out["exact_fraction"] = str(m.exact)
        return out


@dataclass(frozen=True)
class TuneResult:
    """What tuning found for one scenario."""

    scenario: str
    target: tuple[Fraction, Fraction]
    target_text: str
    seed: int
    baseline: Measure
    sensitivities: tuple[Sensitivity, ...]
    suggestions: tuple[Suggestion, ...]
    reason: str | None = None
    """Why there is no suggestion (already in range, nothing to tune, none found)."""
    measured: int = 0
    """Versions of the scenario measured."""
    decisive: tuple[str, ...] = field(default_factory=tuple)
    """What decides the fight, in words: the enemy action that deals the party the most
    damage, the PC downed (or failing) most often, the check least likely to succeed."""

    @property
    def in_range(self) -> bool:
        """Whether the scenario's own figure already lies in the range."""
        low, high = self.target
        return low <= Fraction(self.baseline.value) <= high

    def to_json(self) -> dict[str, Any]:
        """As JSON (``--format json``)."""
        b = self.baseline
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "target": self.target_text,
            "seed": self.seed,
            "baseline": {
                "win": b.win,
                "win_low": b.low,
                "win_high": b.high,
                "battles": b.battles,
                "seed": b.seed,
            },
            "in_range": self.in_range,
            "sensitivity": [s.to_json() for s in self.sensitivities],
            "suggestions": [s.to_json() for s in self.suggestions],
            "reason": self.reason,
            "measured": self.measured,
            "decisive": list(self.decisive),
        }
        if b.exact is not None:
            out["baseline"]["exact"] = float(b.exact)
            out["baseline"]["exact_fraction"] = str(b.exact)
        return out
