"""Procedures (rounds, turns, attacks, chases) as data.

Each system describes each of its procedures once, as a :class:`Flow`. The site draws
its flowcharts from these objects, so the documentation cannot drift from the engine.

>>> f = Flow("demo.check", "判定", (
...     Step("start", "開始", StepKind.START, next=(Edge("roll"),)),
...     Step("roll", "1D10+能力値を振る", StepKind.CHECK, actor="PC", check="GB3>=8",
...          next=(Edge("end"),)),
...     Step("end", "終了", StepKind.END),
... ))
>>> f.validate()
>>> [s.id for s in f.steps]
['start', 'roll', 'end']
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from saikoro.dice import SaikoroError

__all__ = ["Edge", "Flow", "FlowError", "Step", "StepKind", "split_subflow"]


class FlowError(SaikoroError, ValueError):
    """A flow refers to a step that does not exist, or has no start or end."""


class StepKind(enum.Enum):
    """What a step in a procedure is."""

    START = "start"
    """Where the procedure begins (exactly one per flow)."""
    END = "end"
    """Where the procedure ends (at least one per flow)."""
    ACTION = "action"
    """Something done without dice: a declaration, a cost paid, a value applied."""
    CHECK = "check"
    """A roll: ``Step.check`` names the system command that performs it."""
    DECISION = "decision"
    """A branch: its edges carry the condition as their label."""
    TIMING = "timing"
    """A timing at which effects (skills, items) are processed."""
    SUBFLOW = "subflow"
    """A step carried out by another flow (``Step.flow`` names it)."""


@dataclass(frozen=True)
class Edge:
    """An arrow to step ``to``, with an optional condition label."""

    to: str
    label: str = ""


@dataclass(frozen=True)
class Step:
    """One step of a procedure.

    Attributes:
        id: unique within the flow (ASCII, used in Mermaid ids).
        label: what happens, in Japanese, in the project's own words.
        kind: the :class:`StepKind`.
        actor: who acts (``攻撃側``, ``防御側``, ``全員``, ``GM`` ...), if anyone.
        check: for a CHECK step, the system command that performs it.
        flow: for a SUBFLOW step, the id of the flow it runs.
        next: outgoing edges; none for END steps.
    """

    id: str
    label: str
    kind: StepKind = StepKind.ACTION
    actor: str = ""
    check: str = ""
    flow: str = ""
    next: tuple[Edge, ...] = ()


@dataclass(frozen=True)
class Flow:
    """A procedure: ``steps`` with the START step first."""

    id: str
    title: str
    steps: tuple[Step, ...]
    summary: str = ""

    def step(self, step_id: str) -> Step:
        """The step with id ``step_id``."""
        for s in self.steps:
            if s.id == step_id:
                return s
        raise FlowError(f"{self.id}: no step {step_id!r}")

    def validate(self) -> None:
        """Raise :class:`FlowError` unless the flow is well formed.

        Checks: unique ids, exactly one START (first), at least one END, every edge
        target exists, every step reachable from the start, END steps have no edges.
        """
        ids = [s.id for s in self.steps]
        if len(set(ids)) != len(ids):
            raise FlowError(f"{self.id}: duplicate step ids")
        if not self.steps or self.steps[0].kind is not StepKind.START:
            raise FlowError(f"{self.id}: the first step must be the START step")
        if sum(s.kind is StepKind.START for s in self.steps) != 1:
            raise FlowError(f"{self.id}: exactly one START step is allowed")
        if not any(s.kind is StepKind.END for s in self.steps):
            raise FlowError(f"{self.id}: no END step")
        known = set(ids)
        for s in self.steps:
            for e in s.next:
                if e.to not in known:
                    raise FlowError(f"{self.id}: step {s.id!r} points to unknown {e.to!r}")
            if s.kind is StepKind.END and s.next:
                raise FlowError(f"{self.id}: END step {s.id!r} has outgoing edges")
            if s.kind is StepKind.SUBFLOW and not s.flow:
                raise FlowError(f"{self.id}: SUBFLOW step {s.id!r} names no flow")
        seen = {self.steps[0].id}
        todo = [self.steps[0]]
        by_id = {s.id: s for s in self.steps}
        while todo:
            for e in todo.pop().next:
                if e.to not in seen:
                    seen.add(e.to)
                    todo.append(by_id[e.to])
        unreachable = [i for i in ids if i not in seen]
        if unreachable:
            raise FlowError(f"{self.id}: unreachable steps {unreachable}")


def split_subflow(
    flow: Flow, start: str, members: tuple[str, ...], sub_id: str, title: str, *, summary: str = ""
) -> tuple[Flow, Flow]:
    """Move a procedure inside ``flow`` into a flow of its own, linked from ``flow``.

    ``start`` and ``members`` are the steps of the inner procedure (``start`` first);
    in ``flow`` they become one SUBFLOW step (``start``'s id and label) whose edges lead
    where the members led outside themselves. The inner flow ends at END steps named
    like those outside targets. Returns ``(outer, inner)``, both validated.

    >>> f = Flow("d.x", "外", (
    ...     Step("s", "開始", StepKind.START, next=(Edge("c"),)),
    ...     Step("c", "選ぶ", StepKind.DECISION, next=(Edge("a", "A"), Edge("b", "B"))),
    ...     Step("a", "Aをする", next=(Edge("e"),)),
    ...     Step("b", "Bをする", next=(Edge("e"),)),
    ...     Step("e", "終了", StepKind.END),
    ... ))
    >>> outer, inner = split_subflow(f, "c", ("a", "b"), "d.choice", "選択")
    >>> [s.id for s in outer.steps], outer.step("c").flow
    (['s', 'c', 'e'], 'd.choice')
    >>> [(s.id, s.kind.value) for s in inner.steps]
    [('c', 'start'), ('a', 'action'), ('b', 'action'), ('to_e', 'end')]
    """
    inside = {start, *members}
    by_id = {s.id: s for s in flow.steps}
    exits: list[str] = []
    for sid in (start, *members):
        for edge in by_id[sid].next:
            if edge.to not in inside and edge.to not in exits:
                exits.append(edge.to)
    first = by_id[start]
    inner_steps = [
        Step(
            first.id,
            first.label,
            StepKind.START,
            actor=first.actor,
            check=first.check,
            flow=first.flow,
            next=tuple(_redirect(e, inside) for e in first.next),
        )
    ]
    for sid in members:
        step = by_id[sid]
        inner_steps.append(
            Step(
                step.id,
                step.label,
                step.kind,
                actor=step.actor,
                check=step.check,
                flow=step.flow,
                next=tuple(_redirect(e, inside) for e in step.next),
            )
        )
    inner_steps.extend(Step(f"to_{x}", by_id[x].label, StepKind.END) for x in exits)
    inner = Flow(sub_id, title, tuple(inner_steps), summary=summary)
    outer_steps = []
    for step in flow.steps:
        if step.id == start:
            outer_steps.append(
                Step(
                    step.id,
                    step.label,
                    StepKind.SUBFLOW,
                    actor=step.actor,
                    flow=sub_id,
                    next=tuple(Edge(x) for x in exits),
                )
            )
        elif step.id not in members:
            outer_steps.append(step)
    outer = Flow(flow.id, flow.title, tuple(outer_steps), summary=flow.summary)
    outer.validate()
    inner.validate()
    return outer, inner


def _redirect(edge: Edge, inside: set[str]) -> Edge:
    return edge if edge.to in inside else Edge(f"to_{edge.to}", edge.label)
