"""Side missions: each ``check:`` resolved against the encounter, then judged battle by battle.

A scenario's side mission says in ``check:`` (see :mod:`saikoro.scenario._defs._side`)
what the simulator should count (the keys any battle offers, and the system's own
:class:`~saikoro.scenario.SideFact` declarations, each comparing a per-battle fact);
:func:`side_specs` turns each into a :class:`Condition` over indices (enemies, PCs,
difficulty targets of the encounter) or says why it cannot be simulated (no ``check:``,
a PC the party being simulated does not have...); :meth:`Condition.holds` judges each
:class:`Battle` a simulator's rules end in.

>>> c = Condition(win=True, rounds_at_most=3)
>>> c.holds(Battle(win=True, rounds=3)), c.holds(Battle(win=True, rounds=4))
(True, False)
>>> Condition(spared=frozenset({1})).holds(Battle(win=True, rounds=2, defeated=(0,)))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from saikoro.scenario import SideFact
from saikoro.scenario import model as sm

if TYPE_CHECKING:
    from ._model import Encounter

__all__ = ["Battle", "Condition", "SideSpec", "side_specs"]


@dataclass(frozen=True)
class Battle:
    """What one battle left behind: what the tally counts and a condition reads.

    It is the end of a system's step machine (:class:`~saikoro.balance.Rules`): the
    sampler adds it to a :class:`~saikoro.balance.Tally`, the exact solver returns the
    distribution of these (so every field is hashable).

    Attributes:
        win / rounds / taken: the main mission's success, the rounds played, damage taken.
        downed: per PC (by index), whether it was downed.
        end: how it ended, a key of the simulator's ``ends`` (``""``: ``win`` or ``lost``).
        dealt: damage the party dealt.
        defeated: enemy indices, in the order they fell (each once).
        passed: indices of the difficulty targets that succeeded.
        facts: the system's integers (:meth:`Simulator.facts
            <saikoro.balance.Simulator.facts>`), given as a mapping, kept as sorted pairs.
        hit_by: the enemy actions (tally keys, ``id:name``) that dealt the party damage
            (default: those of ``actions`` with damage).
        actions: (enemy action, damage it dealt to the party) pairs.
        sums: (per-system figure, value) pairs the tally sums (cards spent...).

    ``dealt``, ``actions`` and ``sums`` feed the sampled means only: they are not part of
    a battle's identity (two ends differing only there are one end of the exact solver,
    and a canonical state may leave them out).
    """

    win: bool
    rounds: int
    downed: Sequence[bool] = ()
    taken: int = 0
    defeated: Sequence[int] = ()
    passed: Sequence[int] = ()
    facts: Mapping[str, int] | tuple[tuple[str, int], ...] = ()
    hit_by: frozenset[str] = frozenset()
    end: str = ""
    dealt: int = field(default=0, compare=False)
    actions: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    sums: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.facts, Mapping):
            object.__setattr__(self, "facts", tuple(sorted(self.facts.items())))
        for name in ("downed", "defeated", "passed"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        if not self.hit_by and self.actions:
            hit = frozenset(k for k, v in self.actions if v)
            object.__setattr__(self, "hit_by", hit)

    def fact(self, name: str) -> int | None:
        """The per-system integer ``name`` (``None``: not reported)."""
        pairs: tuple[tuple[str, int], ...] = self.facts  # type: ignore[assignment]
        for key, value in pairs:  # pairs, once __post_init__ has run
            if key == name:
                return value
        return None


def _matches(action: str, wanted: str) -> bool:
    """Whether the tally key ``action`` (``id:name``) is the action ``wanted`` names."""
    return action == wanted or action.endswith(":" + wanted)


def _compare(have: int, op: str, value: int) -> bool:
    """Whether a battle's fact ``have`` satisfies ``op value`` (``==``: both true or both
    false, a boolean key over a count)."""
    if op == "<=":
        return have <= value
    if op == ">=":
        return have >= value
    return bool(have) == bool(value)


@dataclass(frozen=True)
class Condition:
    """A side mission's ``check:`` over the encounter's indices; every part given must hold."""

    win: bool | None = None
    rounds_at_most: int | None = None
    downed_at_most: int | None = None
    standing: tuple[int, ...] = ()
    enemies: int = 0
    all_defeated: bool | None = None
    defeated: frozenset[int] = frozenset()
    spared: frozenset[int] = frozenset()
    defeated_first: frozenset[int] = frozenset()
    taken_at_most: int | None = None
    no_damage_from: tuple[str, ...] = ()
    targets: frozenset[int] = frozenset()
    targets_at_least: int | None = None
    facts: tuple[tuple[str, str, int], ...] = ()

    @property
    def reads(self) -> frozenset[str]:
        """The :class:`Battle` fields it reads beside ``win`` (what a system's canonical
        state must keep for its exact figure)."""
        parts = {
            "rounds": self.rounds_at_most is not None,
            "downed": self.downed_at_most is not None or bool(self.standing),
            "defeated": self.all_defeated is not None
            or bool(self.defeated or self.spared or self.defeated_first),
            "taken": self.taken_at_most is not None,
            "hit_by": bool(self.no_damage_from),
            "facts": bool(self.facts),
            "passed": bool(self.targets) or self.targets_at_least is not None,
        }
        return frozenset(k for k, v in parts.items() if v)

    @property
    def only_win(self) -> bool:
        """Whether the condition is the main mission's outcome alone (``win:`` only)."""
        return self.win is not None and self == Condition(win=self.win, enemies=self.enemies)

    def holds(self, b: Battle) -> bool:
        """Whether the battle ``b`` achieved the side mission."""
        if self.win is not None and b.win != self.win:
            return False
        if self.rounds_at_most is not None and b.rounds > self.rounds_at_most:
            return False
        if self.downed_at_most is not None and sum(b.downed) > self.downed_at_most:
            return False
        if any(i < len(b.downed) and b.downed[i] for i in self.standing):
            return False
        fallen = set(b.defeated)
        if self.all_defeated is not None and (len(fallen) >= self.enemies) != self.all_defeated:
            return False
        if not self.defeated <= fallen or self.spared & fallen:
            return False
        if self.defeated_first:
            head = list(b.defeated[: len(self.defeated_first)])
            if set(head) != self.defeated_first:
                return False
        if self.taken_at_most is not None and b.taken > self.taken_at_most:
            return False
        if any(_matches(a, w) for a in b.hit_by for w in self.no_damage_from):
            return False
        if not self.targets <= set(b.passed):
            return False
        if self.targets_at_least is not None and len(b.passed) < self.targets_at_least:
            return False
        for fact, op, value in self.facts:
            have = b.fact(fact)
            if have is None or not _compare(have, op, value):
                return False
        return True


@dataclass(frozen=True)
class SideSpec:
    """One side mission of the encounter: its text, its ``check:`` as written, and either
    the :class:`Condition` simulated or the ``reason`` it is not."""

    index: int
    text: str
    check: Mapping[str, Any] | None
    condition: Condition | None
    reason: str | None = None


def _resolve(
    c: sm.SideCheck, enc: Encounter, facts: frozenset[str], declared: Sequence[SideFact]
) -> Condition | str:
    """``c`` over ``enc``'s indices, or the reason it cannot be simulated with it."""
    enemies, pcs = [e.id for e in enc.enemies], enc.party.names
    targets = [t.name for t in enc.targets]
    for x in (*(c.defeated or ()), *(c.spared or ()), *(c.defeated_first or ())):
        if x not in enemies:
            return f"エネミー {x} がいない"
    for name in c.standing or ():
        if name not in pcs:
            return f"PC「{name}」がパーティ({enc.party.label})にいない"
    for name in c.targets or ():
        if name not in targets:
            return f"判定「{name}」がない"
    wanted_facts = []
    for own in declared:  # the system's own keys given
        value = c.facts.get(own.name)
        if value is None:
            continue
        if own.fact not in facts:
            return own.missing or f"{own.name} を数えられない"
        wanted_facts.append((own.fact, own.compare, int(value)))

    def indices(ids: tuple[str, ...] | None) -> frozenset[int]:
        return frozenset(enemies.index(x) for x in ids or ())

    return Condition(
        win=c.win,
        rounds_at_most=c.rounds_at_most,
        downed_at_most=c.downed_at_most,
        standing=tuple(pcs.index(name) for name in c.standing or ()),
        enemies=len(enemies),
        all_defeated=c.all_defeated,
        defeated=indices(c.defeated),
        spared=indices(c.spared),
        defeated_first=indices(c.defeated_first),
        taken_at_most=c.taken_at_most,
        no_damage_from=tuple(c.no_damage_from or ()),
        targets=frozenset(i for i, t in enumerate(targets) if t in (c.targets or ())),
        targets_at_least=c.targets_at_least,
        facts=tuple(wanted_facts),
    )


NO_CHECK = "条件(check:)が書かれていない"
"""The reason a side mission without ``check:`` is not simulated."""


def side_specs(
    side: Sequence[sm.SideMission],
    enc: Encounter,
    facts: frozenset[str],
    declared: Sequence[SideFact] = (),
) -> tuple[SideSpec, ...]:
    """Every side mission of a scenario, resolved against the encounter (``facts``: what
    its simulator records; ``declared``: the system's own keys)."""
    out = []
    for i, s in enumerate(side):
        if s.check is None:
            out.append(SideSpec(i, s.success, None, None, NO_CHECK))
            continue
        data = sm.to_data(s.check)
        check = dict(data) if isinstance(data, dict) else {}
        got = _resolve(s.check, enc, facts, declared)
        condition, reason = (None, got) if isinstance(got, str) else (got, None)
        out.append(SideSpec(i, s.success, check, condition, reason))
    return tuple(out)
