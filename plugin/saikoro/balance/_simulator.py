"""What a system's balance simulator is: identity and words as class attributes, play as methods.

Each system's ``simulator`` part (:meth:`saikoro.systems.System.part`) has a ``SIMULATOR``,
an instance of a :class:`Simulator` subclass. It implements :meth:`Simulator.prepare` (what
a battle needs that does not change between battles) and :meth:`Simulator.rules` (the battle
as a :class:`~saikoro.balance.Rules` step machine, sampled and solved exactly once for every
system by :mod:`._machine`); the runner, the CLI and the site's バランス section read its
attributes and never compare a system id. Every battle ends one of the ways
:attr:`Simulator.ends` names, so that an author sees *why* a fight is lost.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from saikoro.dice import Dist, InternalError
from saikoro.systems import RegistryError, system_class

from ._budget import Budget, OutOfBudget
from ._machine import Cycle, Rules, Sampler, solve
from ._side import Battle

if TYPE_CHECKING:
    from ._model import Encounter
    from ._side import Condition
    from ._stats import Tally
    from ._tactics import Tactics

__all__ = ["BATTLE_ENDS", "End", "Note", "Simulator", "memo", "simulator_for"]


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


Solved = Dist[Battle] | OutOfBudget | None
"""What solving an encounter gave: its ends, ``None`` (its rules loop), or running out."""

P = TypeVar("P")
"""What :meth:`Simulator.prepare` gives the other methods (a frozen dataclass)."""

F = TypeVar("F", bound=Callable[..., Any])


def memo(method: F) -> F:
    """:func:`functools.cache` for a method of a :class:`~saikoro.balance.Rules` (of any
    object with a ``__dict__``; a frozen dataclass with unhashable fields too), one cache
    per object: what a rule works out again and again from the same (hashable) arguments
    is computed once per prepared encounter, and no two encounters share it. The result
    must depend only on the arguments and the object's fields; the object cannot be
    pickled once it has used the method."""
    return cast(F, _Memo(method))


class _Memo:
    """:func:`memo`'s descriptor: an object's first use of the method puts a cache of
    the bound method in the object's ``__dict__``, where later uses find it first."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        remembered = cache(self.method.__get__(obj))
        # not ``obj.__dict__[...]``: reading ``__dict__`` turns the object's inline
        # attribute values into a dict, and every later attribute read gets slower
        object.__setattr__(obj, self.name, remembered)
        return remembered


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
    ends: ClassVar[Mapping[str, End]] = BATTLE_ENDS
    """Every way a battle can end (key -> words, win or not); a :class:`Battle`'s ``end``."""
    rulings: ClassVar[tuple[str, ...]] = ()
    """The keys of the system's rulings (:attr:`saikoro.systems.System.rulings`) that its
    figures rely on: the options in force and the readings the simulation makes. Results
    name them, and the page links each to the rulings page."""
    battle_facts: ClassVar[frozenset[str]] = frozenset()
    """The per-battle facts (a :class:`Battle`'s ``facts``) it reports for every
    encounter (what :meth:`facts` gives unless a system overrides it)."""
    NOTES: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Everything :meth:`notes` can say: key -> text, with ``{fields}`` filled from the
    encounter (names of skills, effects...). The guide (``saikoro/site/_guide/balance.md``)
    lists them."""

    _solved: tuple[object, Solved, int]
    """The last encounter solved: its prepared value, its ends (or the budget it ran out
    of), the work it took."""
    _sampler: tuple[object, Sampler[Any]]
    """The last encounter sampled: its prepared value and its sampler."""

    def prepare(self, enc: Encounter, tactics: Tactics) -> P:
        """Everything a battle needs that does not change between battles."""
        raise NotImplementedError

    def rules(self, prep: P) -> Rules[Any] | None:
        """The encounter's rules as a step machine (default: ``prep`` itself, when it is
        a :class:`~saikoro.balance.Rules`): everything else is played on it."""
        return prep if isinstance(prep, Rules) else None

    def exact_rules(self, prep: P) -> Rules[Any] | None:
        """The rules the exact solver plays (default: :meth:`rules`; ``None``: not solved).
        A system may merge there the outcomes only the sampled means tell apart (damage
        dealt beyond what downs a target...), which :meth:`~Rules.canonical` leaves out."""
        return self.rules(prep)

    def battle(self, prep: P, rng: random.Random, tally: Tally) -> None:
        """Play one battle from ``rng`` and add it to ``tally``."""
        last: tuple[object, Sampler[Any]] | None = self.__dict__.get("_sampler")
        if last is None or last[0] is not prep:
            if last is not None and last[0] == prep:  # the same encounter's next chunk
                last = self._sampler = (prep, last[1])
            else:
                rules = self.rules(prep)
                if rules is None:
                    raise InternalError(f"{self.system}: no rules for {type(prep).__name__}")
                last = self._sampler = (prep, Sampler(rules))
        tally.add(last[1].play(rng))

    def ends_for(self, prep: P) -> Mapping[str, End]:
        """The ends of this encounter's battles (default :attr:`ends`): a simulator whose
        ends are named by the encounter (which check failed) lists them here."""
        del prep
        return self.ends

    def outcomes(self, prep: P, budget: Budget) -> Dist[Battle] | None:
        """Every way a battle ends, exactly (:func:`~saikoro.balance.solve`); ``None``
        when the rules loop.

        Raises:
            OutOfBudget: the states take more work than ``budget`` (the runner then
                reports the figure as simulated only).
        """
        last: tuple[object, Solved, int] | None = self.__dict__.get("_solved")
        if last is not None and last[0] is prep:  # exact, then each side mission: once
            kept, used = last[1], last[2]
            if not isinstance(kept, OutOfBudget):
                budget.spend(used)
                return kept
            if budget.limit - budget.used < used:  # no more than it ran out of before
                raise OutOfBudget(str(kept))
        rules = self.exact_rules(prep)
        if rules is None:
            return None
        count = Budget(budget.limit - budget.used)
        try:
            found = solve(rules, count)
        except Cycle:
            found = None
        except OutOfBudget as out:
            self._solved = (prep, out, count.used)
            raise
        finally:
            budget.spend(count.used)
        self._solved = (prep, found, count.used)
        return found

    def exact(self, prep: P, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        """P(win) solved exactly and the other exact figures (:meth:`figures`)."""
        found = self.outcomes(prep, budget)
        if found is None:
            return None, {}
        return found.probability_where(attrgetter("win")), self.figures(prep, found)

    def figures(self, prep: P, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """Exact figures beside P(win), read from the ends' distribution (default none)."""
        del prep, outcomes
        return {}

    def exact_ends(self, prep: P, budget: Budget) -> dict[str, Fraction]:
        """P(each end of :meth:`ends_for`), exactly (empty when the rules loop)."""
        found = self.outcomes(prep, budget)
        return {} if found is None else self.end_odds(prep, found)

    def end_odds(self, prep: P, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """P(each end of :meth:`ends_for`) in solved ``outcomes`` (for :meth:`figures`)."""
        out = dict.fromkeys(self.ends_for(prep), Fraction(0))
        for b, p in outcomes.probabilities().items():
            key = b.end or ("win" if b.win else "lost")
            out[key] = out.get(key, Fraction(0)) + p
        return out

    def side_exact(self, prep: P, condition: Condition, budget: Budget) -> Fraction | None:
        """P(a side mission's ``condition``) solved exactly (charging ``budget``, as
        :meth:`exact`)."""
        found = self.outcomes(prep, budget)
        return None if found is None else found.probability_where(condition.holds)

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
        """The per-battle facts (a :class:`Battle`'s ``facts``) it reports for ``enc``
        (default: :attr:`battle_facts`)."""
        del enc
        return self.battle_facts


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
