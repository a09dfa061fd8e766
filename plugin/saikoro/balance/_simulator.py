"""What a system's balance simulator is: identity and words as class attributes, play as methods.

Each system's simulator is its ``simulator`` part (:meth:`saikoro.systems.System.part`: a
module whose ``SIMULATOR`` is an instance of a :class:`Simulator` subclass), found the way
its scenario definition and page profile are. The runner, the CLI and the site's バランス section
read the attributes below and never compare a system id: a sixth system is simulated,
shown and explained through its own subclass.

A subclass sets the class attributes and implements :meth:`Simulator.prepare` and
:meth:`Simulator.battle`; :meth:`Simulator.exact` and :meth:`Simulator.side_exact`
solve what is small enough (charging a :class:`~saikoro.balance.Budget`),
:meth:`Simulator.notes` says what is not modelled, in the words of :attr:`Simulator.NOTES`.

Every battle ends one of the ways :attr:`Simulator.ends` names (a win, a wipe, the round
limit...), so that an author sees *why* a fight is lost, not only how often.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from saikoro.dice import InternalError
from saikoro.systems import RegistryError, system_class

from ._budget import Budget

if TYPE_CHECKING:
    from ._model import Encounter
    from ._side import Condition
    from ._stats import Tally
    from ._tactics import Tactics

__all__ = ["BATTLE_ENDS", "End", "Note", "Simulator", "simulator_for"]


@dataclass(frozen=True)
class End:
    """One way a battle ends: its words and whether it is the main mission's success."""

    label: str
    win: bool


BATTLE_ENDS: Mapping[str, End] = MappingProxyType(
    {
        "win": End("勝利（メインミッション達成）", True),
        "wipe": End("全滅（PCが全員戦闘不能）", False),
        "timeout": End("時間切れ（ラウンド上限）", False),
    }
)
"""How a battle of PCs against enemies ends (the default :attr:`Simulator.ends`)."""


@dataclass(frozen=True)
class Note:
    """One thing the simulation leaves out: its key in :attr:`Simulator.NOTES` and its text."""

    key: str
    text: str


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
    ends: ClassVar[Mapping[str, End]] = BATTLE_ENDS
    """Every way a battle can end (key -> words, win or not); ``Tally.record(end=...)``."""
    rulings: ClassVar[tuple[str, ...]] = ()
    """The keys of the system's rulings (:attr:`saikoro.systems.System.rulings`) that its
    figures rely on: the options in force and the readings the simulation makes. Results
    name them, and the page links each to the rulings page."""
    NOTES: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Everything :meth:`notes` can say: key -> text, with ``{fields}`` filled from the
    encounter (names of skills, effects...). The guide (``saikoro/site/_guide/balance.md``)
    lists them."""

    def prepare(self, enc: Encounter, tactics: Tactics) -> P:
        """Everything a battle needs that does not change between battles."""
        raise NotImplementedError

    def battle(self, prep: P, rng: random.Random, tally: Tally) -> None:
        """Play one battle from ``rng`` and :meth:`~saikoro.balance.Tally.record` it."""
        raise NotImplementedError

    def ends_for(self, prep: P) -> Mapping[str, End]:
        """The ends of this encounter's battles (default :attr:`ends`): a simulator whose
        ends are named by the encounter (which check failed) lists them here."""
        del prep
        return self.ends

    def exact(self, prep: P, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        """P(win) solved exactly and other exact figures.

        ``None`` when the encounter is not of a shape the solver handles; a solver charges
        ``budget`` for its work and lets :class:`~saikoro.balance.OutOfBudget` propagate
        when it runs out (the runner then reports the figure as simulated only).
        """
        del prep, budget
        return None, {}

    def side_exact(self, prep: P, condition: Condition, budget: Budget) -> Fraction | None:
        """P(a side mission's ``condition``) solved exactly, where it can be (charging
        ``budget``, as :meth:`exact`)."""
        del prep, condition, budget
        return None

    def notes(self, prep: P) -> tuple[Note, ...]:
        """What this encounter has that the simulation does not model (see :meth:`note`)."""
        del prep
        return ()

    def note(self, key: str, **fields: object) -> Note:
        """The note ``key`` of :attr:`NOTES`, its fields filled in.

        Raises:
            InternalError: ``key`` is not in :attr:`NOTES`, or a field is missing.
        """
        template = self.NOTES.get(key)
        if template is None:
            raise InternalError(f"{self.system}: no note {key!r} in NOTES")
        try:
            return Note(key, template.format(**fields))
        except KeyError as error:
            raise InternalError(f"{self.system}: note {key!r} needs {error}") from error

    def round_limit(self, enc: Encounter) -> tuple[int | None, bool]:
        """The round limit in force and whether the scenario wrote it (``False``: the
        system's :attr:`default_rounds`)."""
        if enc.round_limit is not None:
            return enc.round_limit, True
        return self.default_rounds, False

    def nothing_to_play(self, enc: Encounter) -> str:
        """Why ``enc`` has nothing to simulate (``""``: it has something).

        The default: an encounter without enemies would "win" every time.
        """
        return "" if enc.enemies else "エネミーがいない"

    def facts(self, enc: Encounter) -> frozenset[str]:
        """The per-battle facts (``Tally.record(facts=...)``) it reports for ``enc``."""
        del enc
        return frozenset()


def simulator_for(system_id: str) -> Simulator[object]:
    """The simulator of ``system_id``: the ``SIMULATOR`` of its ``simulator`` part
    (:meth:`saikoro.systems.System.part`).

    Raises:
        UnknownSystemError: no system is registered as ``system_id``.
        RegistryError: the system has no simulator, or its ``SIMULATOR`` is not one of it.
    """
    module = system_class(system_id).part("simulator")
    made = getattr(module, "SIMULATOR", None)
    if not isinstance(made, Simulator) or made.system != system_id:
        where = module.__name__
        raise RegistryError(f"system {system_id!r}: {where}.SIMULATOR is not a Simulator of it")
    return made
