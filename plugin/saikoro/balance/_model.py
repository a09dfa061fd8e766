"""The simulator's input: a party and an encounter, read from a validated scenario.

This module is the one place that reads the scenario (its typed model,
:attr:`saikoro.scenario.Scenario.model`, by attribute). Everything else in
:mod:`saikoro.balance` reads these frozen dataclasses.

>>> from saikoro.scenario import validate_text
>>> sc = validate_text("system: kegare\\ntitle: t\\nplayers: 2\\n", "t.yaml").scenario
>>> enc = encounter(sc)
>>> enc.party.label, len(enc.party.members), enc.round_limit
('reference-2', 2, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from saikoro.dice import InternalError
from saikoro.scenario import Scenario, parse_win_range, party_size, side_facts
from saikoro.scenario import model as sm
from saikoro.scenario import reference_party as _reference_party
from saikoro.systems import OptionValue, System
from saikoro.systems import get as get_system

from ._errors import BalanceError
from ._side import SideSpec, side_specs
from ._simulator import simulator_for

__all__ = [
    "BalanceSpec",
    "Encounter",
    "Party",
    "encounter",
    "parse_party",
    "reference_party",
]


# -- the encounter ----------------------------------------------------------------------

M = TypeVar("M")
"""A system's model class (its PC, enemy, difficulty target...)."""


@dataclass(frozen=True)
class Party:
    """The PCs (``members``; a nation among them in kokuryoku) and where they came from."""

    label: str
    members: tuple[sm.PC, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Every member's name."""
        return tuple(m.name for m in self.members)


@dataclass(frozen=True)
class BalanceSpec:
    """The scenario's ``balance:`` targets."""

    win: tuple[Fraction, Fraction] | None = None
    win_text: str = ""
    battles: int = 400
    tactics: str | None = None
    enemy_tactics: str | None = None


@dataclass(frozen=True)
class Encounter:
    """Everything one simulator needs.

    Attributes:
        scenario / system / title: identity.
        party: the PCs.
        enemies: the scenario's enemies (its system's model objects).
        targets: the scenario's difficulty targets (model objects).
        tables: the scenario's random tables (``chase_tables:``, model objects).
        round_limit: the main mission's round limit (``None``: none given).
        defeat: enemy ids whose defeat is the main mission (empty: all of them).
        rulings: the scenario's ``rulings`` (the system's options as given).
        balance: the ``balance:`` targets, if given.
        side: the side missions, each with its condition resolved (or why not).
    """

    scenario: str
    system: str
    title: str
    party: Party
    enemies: tuple[sm.Enemy, ...]
    targets: tuple[sm.DifficultyTarget, ...]
    round_limit: int | None
    defeat: tuple[str, ...]
    rulings: tuple[tuple[str, OptionValue], ...]
    balance: BalanceSpec | None = None
    side: tuple[SideSpec, ...] = ()
    tables: tuple[sm.ChaseTable, ...] = ()

    @property
    def rules(self) -> System:
        """The system with the scenario's rulings applied."""
        return _system(self.system, self.rulings)

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """The ruling options in force (defaults filled in)."""
        return self.rules.options

    @property
    def reads(self) -> frozenset[str]:
        """The :class:`~saikoro.balance.Battle` fields the side missions read beside
        ``win`` (:attr:`Condition.reads <saikoro.balance.Condition.reads>`)."""
        conditions = (s.condition for s in self.side if s.condition is not None)
        return frozenset[str]().union(*(c.reads for c in conditions))

    def of(self, part: str, kind: type[M]) -> tuple[M, ...]:
        """``members`` (the party), ``enemies``, ``targets`` or ``tables``, each checked
        to be the system's model class ``kind``.

        Raises:
            InternalError: one is not (the scenario's model is not the simulator's).
        """
        items = self.party.members if part == "members" else getattr(self, part)
        for x in items:
            if not isinstance(x, kind):
                raise InternalError(f"{self.system}: {x!r} is not a {kind.__name__}")
        return tuple(items)


@cache
def _system(system: str, rulings: tuple[tuple[str, OptionValue], ...]) -> System:
    return get_system(system, **dict(rulings))


def parse_party(system: str, members: Sequence[sm.PC | Mapping[str, object]], label: str) -> Party:
    """A :class:`Party` from ``party:`` entries (model PCs, or validated ``party:`` data:
    the built-in reference parties and party files, built through the model)."""
    pcs = [m if isinstance(m, sm.PC) else sm.pc_model(system, m) for m in members]
    return Party(label, tuple(pcs))


def reference_party(system: str, size: int) -> list[dict[str, Any]]:
    """The built-in reference party of ``size`` PCs for ``system`` in ``party:`` format
    (:func:`saikoro.scenario.reference_party`: the first *n* of the system's archetypes,
    cycling with numbered names beyond four), for a size a user gives.

    Raises:
        BalanceError: ``size`` is below 1.
    """
    if size < 1:
        raise BalanceError("a party needs at least one PC")
    return _reference_party(system, size)


@cache
def _reference(system: str, size: int) -> Party:
    """The built-in reference party (immutable, so built once per system and size)."""
    return parse_party(system, reference_party(system, size), f"reference-{size}")


def encounter(
    scenario: Scenario,
    *,
    party: Party | None = None,
    players: int | None = None,
) -> Encounter:
    """The :class:`Encounter` of a validated scenario.

    The party is ``party`` if given, else the scenario's ``party:``, else the built-in
    reference party for ``players`` (default: the smallest ``players:`` of the scenario).
    """
    model = scenario.model
    system = scenario.system
    if party is None and players is None and model.party:
        party = parse_party(system, model.party, "scenario")
    if party is None:
        size = players or party_size(model.players)
        party = _reference(system, size)
    rounds = model.missions.main.rounds if model.missions else None
    raw = model.balance
    balance = None
    if raw is not None:
        balance = BalanceSpec(
            win=parse_win_range(raw.win) if raw.win else None,
            win_text=raw.win or "",
            battles=raw.battles,
            tactics=raw.tactics,
            enemy_tactics=raw.enemy_tactics,
        )
    enc = Encounter(
        scenario=scenario.id,
        system=system,
        title=scenario.title,
        party=party,
        enemies=tuple(model.enemies),
        targets=tuple(model.difficulty_targets),
        round_limit=rounds,
        defeat=tuple(raw.defeat or ()) if raw else (),
        rulings=tuple(sorted(model.rulings.items())),
        balance=balance,
        tables=tuple(model.chase_tables),
    )
    side = side_specs(
        model.missions.side if model.missions else (),
        enc,
        simulator_for(system).facts(enc),
        side_facts(system),
    )
    return replace(enc, side=side)
