"""What the flow modules share: the step kinds by letter and :func:`edges`."""

from __future__ import annotations

from saikoro.systems._flow import Edge, StepKind

__all__ = ["A", "C", "D", "E", "S", "T", "X", "edges"]

A, C, D, E, S, T, X = (
    StepKind.ACTION,
    StepKind.CHECK,
    StepKind.DECISION,
    StepKind.END,
    StepKind.START,
    StepKind.TIMING,
    StepKind.SUBFLOW,
)


def edges(*targets: str | tuple[str, str]) -> tuple[Edge, ...]:
    """The edges to ``targets``: a step id, or ``(step id, label)``."""
    return tuple(Edge(t) if isinstance(t, str) else Edge(t[0], t[1]) for t in targets)
