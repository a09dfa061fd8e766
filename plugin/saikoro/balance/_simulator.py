"""What a system's balance simulator is: identity and words as class attributes, play as methods.

Each system names its simulator in :attr:`saikoro.systems.System.simulator` (a module whose
``SIMULATOR`` is an instance of a :class:`Simulator` subclass), the way it names its
scenario definition and page profile. The runner, the CLI and the site's バランス section
read the attributes below and never compare a system id: a sixth system is simulated,
shown and explained through its own subclass.

A subclass sets the class attributes and implements :meth:`Simulator.prepare` and
:meth:`Simulator.battle`; :meth:`Simulator.exact` and :meth:`Simulator.side_exact`
solve what is small enough, :meth:`Simulator.notes` says what is not modelled.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from saikoro.systems import RegistryError, system_class

if TYPE_CHECKING:
    from ._model import Encounter
    from ._side import Condition
    from ._stats import Tally
    from ._tactics import Tactics

__all__ = ["Simulator", "simulator_for"]

P = TypeVar("P")
"""What :meth:`Simulator.prepare` gives the other methods (a frozen dataclass)."""


class Simulator(Generic[P]):
    """A system's simulator (one instance per system, ``SIMULATOR`` of its module).

    Class attributes give its identity and the words the CLI and the pages use; the
    methods play one battle and solve small encounters exactly.
    """

    system: ClassVar[str] = ""
    """The id of the system it simulates."""
    flows: ClassVar[tuple[str, ...]] = ()
    """The system flows (ids of :meth:`saikoro.systems.System.flows`) a battle follows."""
    tactics: ClassVar[tuple[str, str]] = ("focus", "random")
    """The default presets: (PCs', enemies')."""
    tactics_reason: ClassVar[str] = ""
    """Why those defaults (Japanese; shown on the rulings page)."""
    default_rounds: ClassVar[int | None] = None
    """The round limit when the main mission gives none (``None``: the play has no rounds)."""
    round_unit: ClassVar[str] = "ラウンド"
    """One round of this system (ラウンド, ターン, カット...)."""
    rounds_caption: ClassVar[str] = "かかったラウンド数"
    """What the histogram of ``rounds`` counts."""
    rounds_column: ClassVar[str] = "ラウンド"
    """The histogram's first column."""
    play_word: ClassVar[str] = "戦闘"
    """What one simulated play is called (戦闘; 試行 for a series of checks)."""
    pcs_go_down: ClassVar[bool] = True
    """Whether PCs can be downed (no per-PC rows otherwise)."""
    downed_caption: ClassVar[str] = "PCごとの戦闘不能率"
    """The caption of the per-PC figures."""
    downed_column: ClassVar[str] = "戦闘不能率"
    """Their column."""
    mean_labels: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Japanese labels of the per-battle means it counts (key -> label)."""
    danger_is_side: ClassVar[bool] = False
    """Whether the most dangerous action is the enemy side's whole attack (no enemy named)."""

    def prepare(self, enc: Encounter, tactics: Tactics) -> P:
        """Everything a battle needs that does not change between battles."""
        raise NotImplementedError

    def battle(self, prep: P, rng: random.Random, tally: Tally) -> None:
        """Play one battle from ``rng`` and :meth:`~saikoro.balance.Tally.record` it."""
        raise NotImplementedError

    def exact(self, prep: P) -> tuple[Fraction | None, dict[str, Fraction]]:
        """P(win) solved exactly (``None``: too large or not solvable) and other exact figures."""
        del prep
        return None, {}

    def side_exact(self, prep: P, condition: Condition) -> Fraction | None:
        """P(a side mission's ``condition``) solved exactly, where it can be."""
        del prep, condition
        return None

    def notes(self, prep: P) -> tuple[str, ...]:
        """What this encounter has that the simulation does not model."""
        del prep
        return ()

    def nothing_to_play(self, enc: Encounter) -> str:
        """Why ``enc`` has nothing to simulate (``""``: it has something).

        The default: an encounter without enemies would "win" every time.
        """
        return "" if enc.enemies else "エネミーがいない"

    def facts(self, enc: Encounter) -> frozenset[str]:
        """The per-battle facts (``Tally.record(facts=...)``) it reports for ``enc``."""
        del enc
        return frozenset()


_cache: dict[str, Simulator[object]] = {}


def simulator_for(system_id: str) -> Simulator[object]:
    """The simulator of ``system_id`` (imported on first use).

    Raises:
        UnknownSystemError: no system is registered as ``system_id``.
        RegistryError: the system names no simulator, or its ``SIMULATOR`` is not one of it.
    """
    found = _cache.get(system_id)
    if found is None:
        where = system_class(system_id).simulator
        if not where:
            raise RegistryError(f"system {system_id!r} names no simulator")
        made = getattr(importlib.import_module(where), "SIMULATOR", None)
        if not isinstance(made, Simulator) or made.system != system_id:
            raise RegistryError(f"system {system_id!r}: {where}.SIMULATOR is not a Simulator of it")
        found = _cache[system_id] = made
    return found
