"""What every rule system provides: commands, odds, rulings, flows and a board.

A system is a subclass of :class:`System`, one module per system, registered by id
(see :mod:`saikoro.systems`). Instances are immutable and carry the table's choices
for the rulings the system exposes as options.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol, Self, overload

from saikoro.dice import DiceSource, Odds, Roll, SaikoroError

from ._flow import Flow

if TYPE_CHECKING:
    from types import ModuleType

__all__ = [
    "FAN_WORK",
    "Board",
    "CommandDoc",
    "OptionError",
    "OptionValue",
    "RegistryError",
    "RightsNotice",
    "RulesError",
    "Ruling",
    "System",
]

OptionValue = bool | int | str


class RegistryError(SaikoroError, ValueError):
    """A registered system cannot be loaded, or its parts disagree with its id."""


class OptionError(SaikoroError, ValueError):
    """An unknown ruling option or a value it does not accept.

    ``str(error)`` is the English message; ``error.ja`` the same in Japanese (what the
    command line and the author-facing reports print)."""

    def __init__(self, message: str, *, ja: str = "") -> None:
        super().__init__(message)
        self.ja = ja or message


class RulesError(SaikoroError, ValueError):
    """A rules function asked for what the rules do not have.

    A poison level of 6, a check without dice, a contest without the defender's roll, an
    unknown position: the systems' maths refuses it rather than guess.
    """


@dataclass(frozen=True)
class CommandDoc:
    """Documentation of one system command.

    Attributes:
        syntax: the command's shape, e.g. ``GB[能力値]>=[目標値]``.
        summary: what it does, in Japanese.
        examples: example commands; the site shows each with its odds.
        parameters: parameter name -> meaning.
    """

    syntax: str
    summary: str
    examples: tuple[str, ...] = ()
    parameters: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Ruling:
    """A decision where the seed is ambiguous or silent.

    Attributes:
        key: a stable id (``getb.final_damage_tie``); also the option name after the dot
            when ``option`` is true.
        title: short Japanese title.
        seed: what the rule text says (summarised in our words, never quoted).
        decision: what saikoro does.
        reasoning: why.
        option: whether tables can choose otherwise with an option of the same name.
        default: the option's default value.
        choices: the accepted values (for str options) or ``()`` for bool/int.
        words: each choice as a reader reads it, in Japanese (``("defender", "防御側の
            勝ち")``): what a page shows of a scenario's choice (:meth:`word`).
    """

    key: str
    title: str
    seed: str
    decision: str
    reasoning: str
    option: bool = False
    default: OptionValue = False
    choices: tuple[str, ...] = ()
    words: tuple[tuple[str, str], ...] = ()

    @property
    def option_name(self) -> str:
        """The option name (the part of ``key`` after the system id)."""
        return self.key.split(".", 1)[-1]

    def word(self, value: OptionValue) -> str:
        """The option's ``value`` as a reader reads it: its word from :attr:`words`, 採用 /
        不採用 for a bool, an int or a choice with no word as written.

        >>> Ruling("x.tie", "同値", "", "", "", True, "a", ("a", "b"), (("a", "先攻"),)).word("a")
        '先攻'
        """
        if isinstance(value, bool):
            return "採用" if value else "不採用"
        return dict(self.words).get(str(value), str(value))


@dataclass(frozen=True)
class RightsNotice:
    """The rights notice (権利表記) a scenario of the system carries, in the project's words.

    Attributes:
        game: the game's title as its rights holder publishes it.
        holder: who holds the rights to the game (and to the work it is based on).
        guideline: what a fan work has to follow, and what the published book must not do.
        source: where the rules are published (as the rule text says of itself).

    >>> n = RightsNotice("例のゲーム", "例の作者", "作者の定める条件に従う。", "作者のサイト")
    >>> print(n.text())
    『例のゲーム』の非公式ファン作品です（権利者：例の作者／ルールの公開元：作者のサイト）。作者の定める条件に従う。
    """

    game: str
    holder: str
    guideline: str
    source: str = ""

    def text(self) -> str:
        """The notice as one paragraph."""
        return f"{self.head()}。{self.guideline}"

    def head(self) -> str:
        """The game, its rights holder and the rules' source, without the guideline (a
        list of several systems' notices gives each guideline once)."""
        where = f"／ルールの公開元：{self.source}" if self.source else ""
        return f"『{self.game}』の非公式ファン作品です（権利者：{self.holder}{where}）"


FAN_WORK = (
    "ルールの要点は saikoro が独自の言葉でまとめ直したもので、ルール本文は載せていません。"
    "シナリオを公開・頒布するときは、権利者の定める条件（二次創作の指針など）に従ってください。"
)
"""What every built-in system's notice says of the use it makes of the rules."""


class Board(Protocol):
    """A system's map: named cells, membership and distance."""

    def cells(self) -> tuple[str, ...]:
        """Every cell name, in a natural order."""
        ...

    def contains(self, cell: str) -> bool:
        """Whether ``cell`` names a cell of this board."""
        ...

    def distance(self, a: str, b: str) -> int:
        """The distance in cells between ``a`` and ``b``."""
        ...


class System:
    """Base class of the rule systems.

    Subclasses set the class attributes and override :meth:`roll_command` and
    :meth:`odds_command` (the :class:`saikoro.dice.Extension` protocol).
    """

    id: ClassVar[str] = ""
    """Registry id (``getb``)."""
    name: ClassVar[str] = ""
    """Display name in Japanese."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names it is looked up by (Japanese names included)."""
    rights: ClassVar[RightsNotice | None] = None
    """The rights notice every scenario page, the book and its colophon show (``None``: a
    system that states none; the pages then say so)."""
    commands: ClassVar[tuple[CommandDoc, ...]] = ()
    """The system's commands, documented."""
    rulings: ClassVar[tuple[Ruling, ...]] = ()
    """Rulings; those with ``option=True`` are options of the instance."""

    sample_scenario: ClassVar[str] = ""
    """The sample scenario ``saikoro new`` writes: a package resource, ``package:path``."""
    sample_flow: ClassVar[str] = ""
    """The flow (an id of :meth:`flows`) a new book's first page draws (``saikoro new``)."""

    PARTS: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "scenario": "ROOT: the scenario definition (saikoro.scenario)",
            "model": "MODEL: the scenario model class (saikoro.scenario.model)",
            "page": "PROFILE: how its scenarios show on pages (saikoro.site)",
            "vtt": "character(enemy) and palette(enemy, system): VTT exports (saikoro.export)",
            "simulator": "SIMULATOR: plays its encounters (saikoro.balance)",
        }
    )
    """The parts above the engine a system's package may hold, by module name, and what each
    module provides: ``<package>.scenario`` and so on beside the class (see :meth:`part`)."""

    @classmethod
    def package(cls) -> str:
        """The package of the system: the one its class is defined in (``saikoro_toy``;
        ``saikoro.systems._getb``), which holds its engine and its parts (``""``: a class
        in a top-level module, which has no parts)."""
        module = sys.modules[cls.__module__]
        if hasattr(module, "__path__"):
            return cls.__module__
        return cls.__module__.rpartition(".")[0]

    @classmethod
    def part_modules(cls) -> tuple[str, ...]:
        """The modules (or packages) the parts above the engine are, by the convention of
        :data:`PARTS` (whether the system has them or not): what the browser's copy of the
        engine leaves out, and what may import beyond the standard library."""
        package = cls.package()
        return tuple(f"{package}.{name}" for name in cls.PARTS) if package else ()

    @overload
    @classmethod
    def part(cls, name: str) -> ModuleType: ...
    @overload
    @classmethod
    def part(cls, name: str, *, required: Literal[False]) -> ModuleType | None: ...
    @classmethod
    def part(cls, name: str, *, required: bool = True) -> ModuleType | None:
        """The system's part ``name`` (a key of :data:`PARTS`): the module
        ``<package>.<name>`` beside its class, imported on first use. The one way
        :mod:`saikoro.scenario`, :mod:`saikoro.site`, :mod:`saikoro.export` and
        :mod:`saikoro.balance` find a system's parts, so a system is registered once.

        Raises:
            RegistryError: the system has no such part (``required``; otherwise ``None``),
                or ``name`` is not a part.

        >>> from saikoro.systems import get
        >>> type(get("getb")).part("page").__name__
        'saikoro.systems._getb.page'
        """
        if name not in cls.PARTS:
            raise RegistryError(
                f"{name!r} is not a part of a system; parts: {', '.join(cls.PARTS)}"
            )
        package = cls.package()
        module_name = f"{package}.{name}"
        try:
            if not package:
                raise ModuleNotFoundError(name=module_name)
            return importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise  # the part is there but imports something missing: a bug in it
            if required:
                raise RegistryError(
                    f"system {cls.id!r} has no {name} part (no module {module_name!r}: "
                    f"{cls.PARTS[name]})"
                ) from None
            return None

    __slots__ = ("_options",)

    def __init__(self, **options: OptionValue) -> None:
        spec = {r.option_name: r for r in self.rulings if r.option}
        values: dict[str, OptionValue] = {k: r.default for k, r in spec.items()}
        for key, value in options.items():
            if key not in spec:
                known = ", ".join(sorted(spec)) or "(none)"
                raise OptionError(
                    f"{self.id}: unknown option {key!r}; known: {known}",
                    ja=f"{self.id} にオプション {key!r} はありません（使えるもの: {known}）",
                )
            ruling = spec[key]
            if type(value) is not type(ruling.default):
                kind = {bool: "true か false", int: "整数", str: "文字列"}[type(ruling.default)]
                raise OptionError(
                    f"{self.id}: option {key!r} expects {type(ruling.default).__name__}, "
                    f"got {value!r}",
                    ja=f"{self.id} のオプション {key!r} は{kind}です（{value!r} は使えません）",
                )
            if ruling.choices and value not in ruling.choices:
                choices = ", ".join(ruling.choices)
                raise OptionError(
                    f"{self.id}: option {key!r} must be one of {choices}",
                    ja=f"{self.id} のオプション {key!r} は {choices} のどれかです",
                )
            values[key] = value
        self._options = MappingProxyType(values)

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """The ruling options in force (defaults filled in)."""
        return self._options

    def option(self, name: str) -> OptionValue:
        """One option's value."""
        return self._options[name]

    def _int_option(self, name: str, low: int, high: int | None = None, unit: str = "") -> int:
        """Option ``name``, checked to be an int from ``low`` to ``high`` (no limit if ``None``).

        Raises:
            OptionError: when it is out of range; the message ends in ``unit`` (`` sides``).

        >>> from saikoro.systems import get
        >>> get("kokuryoku", die=21)
        Traceback (most recent call last):
        saikoro.systems._base.OptionError: kokuryoku: option 'die' must be between 2 and 20 sides
        """
        value = self._options[name]
        if not isinstance(value, int) or value < low or (high is not None and value > high):
            bound = f"{low} or more" if high is None else f"between {low} and {high}{unit}"
            ja = f"{low} 以上" if high is None else f"{low} から {high} まで"
            raise OptionError(
                f"{self.id}: option {name!r} must be {bound}",
                ja=f"{self.id} のオプション {name!r} は {ja}の整数です",
            )
        return value

    def with_options(self, **options: OptionValue) -> Self:
        """A copy with some options changed."""
        merged = dict(self._options)
        merged.update(options)
        return type(self)(**merged)

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:  # noqa: ARG002
        """Roll a system command, or ``None`` when ``command`` is not one."""
        return None

    def odds_command(self, command: str) -> Odds | None:  # noqa: ARG002
        """Exact odds of a system command, or ``None`` when ``command`` is not one."""
        return None

    def flows(self) -> Mapping[str, Flow]:
        """The system's procedures, by flow id (``getb.attack``)."""
        return {}

    def board(self) -> Board | None:
        """The system's map, if it has one."""
        return None

    def __repr__(self) -> str:
        changed = {
            r.option_name: self._options[r.option_name]
            for r in self.rulings
            if r.option and self._options[r.option_name] != r.default
        }
        args = ", ".join(f"{k}={v!r}" for k, v in changed.items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, System):
            return NotImplemented
        return type(self) is type(other) and dict(self._options) == dict(other._options)

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self._options.items()))))
