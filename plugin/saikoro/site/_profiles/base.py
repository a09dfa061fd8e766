"""What a system profile tells the scenario pages: which commands to show, and how.

A profile maps the system-specific parts of a scenario (enemies, difficulty targets) to
engine commands. The pages compute every shown probability by running those commands
through the engine's odds — the same command goes on the roll button.

A profile reads the typed model (:mod:`saikoro.scenario.model`): a system's profile is a
``Profile[<its Enemy>, <its DifficultyTarget>, <its attack>]`` and reads attributes, the
defaults filled in by validation.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, cast

from saikoro.dice import InternalError
from saikoro.export import Character
from saikoro.scenario.model import PC, DifficultyTarget, Enemy, Model

__all__ = [
    "AnyProfile",
    "Attack",
    "Character",
    "Grid",
    "Metric",
    "Personal",
    "Profile",
    "given",
]


class Attack(Protocol):
    """What a page shows of every attack: its name and effect (Markdown)."""

    @property
    def name(self) -> str: ...
    @property
    def effect(self) -> str | None: ...


E = TypeVar("E", bound=Enemy)
T = TypeVar("T", bound=DifficultyTarget)
A = TypeVar("A", bound=Attack)


class Metric(enum.Enum):
    """A number shown in a grid cell, computed from the cell command's odds."""

    SUCCESS = "success"
    """P(success)."""
    CRITICAL = "critical"
    """P(critical)."""
    FUMBLE = "fumble"
    """P(fumble)."""
    MEAN = "mean"
    """The expected value of the main quantity (e.g. damage)."""
    AT_LEAST = "at_least"
    """P(main quantity >= k) for each k in :attr:`Grid.thresholds`."""
    CHART = "chart"
    """A small chart of the distribution."""
    GAIN = "gain"
    """The expected gain of the events named ``<word>+N`` (kokuryoku: 国力+N)."""
    EVENTS = "events"
    """Every named event of the odds (system result words: 粉砕, 回避 ...)."""


@dataclass(frozen=True)
class Grid:
    """A table of commands: one row per situation, one column per opponent/ability value.

    Attributes:
        title: caption, in Japanese.
        columns: column headings.
        rows: (row heading, one command per column; ``""`` for an empty cell).
        metrics: what each cell shows.
        thresholds: the ``k`` of :attr:`Metric.AT_LEAST`.
        note: a sentence under the table (assumptions such as typical armour).
        chart: (row, column) of the cell whose distribution is drawn under the table.
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    metrics: tuple[Metric, ...] = (Metric.SUCCESS, Metric.CRITICAL, Metric.FUMBLE)
    thresholds: tuple[int, ...] = ()
    note: str = ""
    chart: tuple[int, int] | None = None


@dataclass(frozen=True)
class Personal:
    """How a difficulty target's roll follows the reader's own value, set once per page.

    Attributes:
        key: the character value the target is rolled with; the same key on every target
            of a scenario that reads that value (``agility``; akatsuki: the ability).
        label: its name on the page (敏捷).
        example: the value of the card's example roll (:meth:`Profile.target_command`).
        low: the lowest value a character can have (the scenario definitions' bound).
        high: the highest.
        command: the command rolled with a value (the same function as the example's).
    """

    key: str
    label: str
    example: int
    low: int
    high: int
    command: Callable[[int], str]

    def template(self) -> str:
        """The command with ``{}`` where the value goes, checked against every value.

        >>> Personal("a", "A", 3, 0, 9, lambda v: f"GB{v}>=8").template()
        'GB{}>=8'
        >>> Personal("a", "A", 3, 0, 9, lambda v: f"GB{v}>={v}").template()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        saikoro.dice._errors.InternalError: a: the command ... holds the value more than once

        Raises:
            saikoro.dice.InternalError: the command is not the same text around the value for
                every value in range (a profile bug: the page could not follow the reader).
        """
        mark = 7_654_321
        sample = self.command(mark)
        if sample.count(str(mark)) != 1:
            raise InternalError(f"{self.key}: the command {sample} holds the value more than once")
        template = sample.replace(str(mark), "{}")
        for value in range(self.low, self.high + 1):
            if template.replace("{}", str(value)) != self.command(value):
                raise InternalError(f"{self.key}: {self.command(value)} does not follow {template}")
        return template


class Profile(Generic[E, T, A]):
    """The default profile: a system without a dedicated mapping shows data, not odds."""

    system: str = ""

    def stats(self, enemy: E) -> list[tuple[str, str]]:
        """(label, value) rows of an enemy's stat block (plain text, escaped by the page)."""
        skip = {"id", "name", "attacks", "skills"}
        return [(k, _plain(v)) for k, v in given(enemy) if k not in skip]

    def target_command(self, target: T) -> str | None:  # noqa: ARG002 - overridden by systems
        """The command of a difficulty target's roll button (a typical character)."""
        return None

    def target_grid(self, target: T) -> Grid | None:  # noqa: ARG002 - overridden by systems
        """Odds of a difficulty target across the values a character can have."""
        return None

    def target_personal(self, target: T) -> Personal | None:  # noqa: ARG002 - overridden by systems
        """How the target's roll follows the reader's own value; ``None``: it does not."""
        return None

    def target_party(self, target: T, pc: PC) -> tuple[int, str] | None:  # noqa: ARG002 - overridden by systems
        """(value, command) of the target as ``pc`` of the scenario's party rolls it."""
        return None

    def target_facts(self, target: T, scenario: object) -> list[tuple[str, str]]:  # noqa: ARG002 - overridden by systems
        """(label, value) rows the target's card adds (a chase: who flees, the goal...);
        ``scenario`` is the scenario's model."""
        return []

    def target_label(self, target: T) -> str:
        """One line describing the target (check and target number)."""
        return " / ".join(f"{k}: {_plain(v)}" for k, v in given(target) if k != "name")

    def attack_label(self, enemy: E, attack: A) -> str:  # noqa: ARG002 - overridden by systems
        """One line describing an attack."""
        return " / ".join(f"{k}: {_plain(v)}" for k, v in given(attack) if k != "name")

    def attack_command(self, enemy: E, attack: A) -> str | None:  # noqa: ARG002 - overridden by systems
        """The command of an attack's roll button."""
        return None

    def attack_grids(self, enemy: E, attack: A) -> Sequence[Grid]:  # noqa: ARG002 - overridden by systems
        """Damage distributions of an attack against the system's defences."""
        return ()

    def attacks(self, enemy: E) -> Sequence[A]:
        """The enemy's attacks (each shown with its odds).

        By default its ``attacks`` (a system whose model derives from its definition).
        """
        found = getattr(enemy, "attacks", None) or ()
        return cast("tuple[A, ...]", tuple(a for a in found if isinstance(a, Model)))

    def skills(self, enemy: E) -> Sequence[tuple[str, str]]:
        """(name, effect) of the enemy's skills shown as text (not among :meth:`attacks`).

        By default its ``skills`` with an ``effect`` (a model derived from a definition).
        """
        attacks: Sequence[object] = self.attacks(enemy)
        return [
            (str(getattr(s, "name", "")), str(getattr(s, "effect", "")))
            for s in getattr(enemy, "skills", None) or ()
            if isinstance(s, Model)
            and getattr(s, "effect", None)
            and not any(s is a for a in attacks)
        ]

    def readings(self, enemy: E) -> Mapping[str, str]:  # noqa: ARG002 - overridden by systems
        """Skill or attack name -> what the balance simulation reads its ``effect`` as, in
        words (shown under the effect); empty for a system that reads no effect text."""
        return {}

    def enemy_grids(self, enemy: E) -> Sequence[Grid]:  # noqa: ARG002 - overridden
        """Odds tables of an enemy as a whole (systems whose enemies have no attack list)."""
        return ()


AnyProfile = Profile[Enemy, DifficultyTarget, Attack]
"""A profile of some system, as the pages hold it (see :func:`~saikoro.site._profiles.profile`)."""


def given(value: object) -> list[tuple[str, object]]:
    """(key, value) of what a model object holds (``None`` left out), in the order of its
    definition (``note``/``notes`` last, as the definitions write them).

    >>> from saikoro.scenario.model import MainMission
    >>> given(MainMission(success="勝つ", rounds=3))
    [('success', '勝つ'), ('rounds', 3)]
    """
    if not isinstance(value, Model):
        return []
    items = [
        (f.name, getattr(value, f.name))
        for f in dataclasses.fields(value)
        if f.name != "where" and getattr(value, f.name) is not None
    ]
    return sorted(items, key=lambda kv: kv[0] in {"note", "notes"})


def _plain(value: object) -> str:
    """A YAML value as one line of plain text."""
    if isinstance(value, Model):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in given(value))
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
