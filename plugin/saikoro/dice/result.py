"""The two results of the engine: a :class:`Roll` and its exact :class:`Odds`.

Both are immutable records with keyword construction, equality, ``repr`` and a
``replace`` method. They are written by hand instead of with ``@dataclass`` because
importing :mod:`dataclasses` (and :mod:`inspect` behind it) would double the import
time of the browser-shipped engine. They still behave as dataclasses towards the
:mod:`dataclasses` functions: ``dataclasses.replace``, ``fields`` and ``asdict`` work
(the field table is built on first use, once :mod:`dataclasses` is loaded anyway).

>>> r = Roll("2D6", "(2D6) ＞ 7[3,4] ＞ 7", value=7)
>>> r.replace(secret=True).secret, r.secret
(True, False)
>>> import dataclasses
>>> dataclasses.replace(r, dice=((6, 3), (6, 4))).dice
((6, 3), (6, 4))
>>> [f.name for f in dataclasses.fields(Odds)][:3]
['command', 'distribution', 'success']
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

__all__ = ["Odds", "Roll"]

_NO_DEFAULT = object()


class _Fields:
    """Builds ``__dataclass_fields__`` on first access (dataclasses is loaded by then)."""

    def __get__(self, obj: object, owner: type[_Record]) -> dict[str, Any]:
        import dataclasses  # only reached through the dataclasses functions

        table: dict[str, Any] = {}
        for name, default in owner._defaults:
            if default is _NO_DEFAULT:
                made = dataclasses.field()
            elif isinstance(default, dict):
                made = dataclasses.field(default_factory=dict)
            else:
                made = dataclasses.field(default=default)
            made.name = name
            made.type = owner.__annotations__.get(name, "object")
            made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
            table[name] = made
        type.__setattr__(owner, "__dataclass_fields__", table)
        return table


class _Record:
    """Shared behaviour of the frozen records."""

    __slots__ = ()
    _defaults: ClassVar[tuple[tuple[str, object], ...]] = ()
    __dataclass_fields__: ClassVar[Any] = _Fields()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name, _ in self._defaults)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, _Record):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self._defaults)
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[type[_Record], tuple[object, ...]]:
        return (type(self), self._values())

    def _set(self, **values: object) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)


class Roll(_Record):
    """One roll, with the exact text BCDice prints for the same dice.

    Attributes:
        command: the command as understood (normalised, comment removed).
        text: BCDice-style result text, e.g. ``(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功``.
        secret: the command had the secret prefix ``S``.
        success / failure / critical / fumble: result flags, as BCDice sets them.
        dice: every die used, as ``(sides, value)``; feeding them back replays the roll.
        value: the main numeric result where there is one (total, success count...).
        outcome: a system's result word where it has one (``粉砕``, ``回避`` ...).
    """

    __slots__ = (
        "command",
        "critical",
        "dice",
        "failure",
        "fumble",
        "outcome",
        "secret",
        "success",
        "text",
        "value",
    )
    __match_args__ = (
        "command",
        "text",
        "secret",
        "success",
        "failure",
        "critical",
        "fumble",
        "dice",
        "value",
        "outcome",
    )
    _defaults: ClassVar[tuple[tuple[str, object], ...]] = (
        ("command", _NO_DEFAULT),
        ("text", _NO_DEFAULT),
        ("secret", False),
        ("success", False),
        ("failure", False),
        ("critical", False),
        ("fumble", False),
        ("dice", ()),
        ("value", None),
        ("outcome", None),
    )

    command: str
    text: str
    secret: bool
    success: bool
    failure: bool
    critical: bool
    fumble: bool
    dice: tuple[tuple[int, int], ...]
    value: int | str | None
    outcome: str | None

    def __init__(  # noqa: PLR0917 - positional like the dataclass it replaces
        self,
        command: str,
        text: str,
        secret: bool = False,
        success: bool = False,
        failure: bool = False,
        critical: bool = False,
        fumble: bool = False,
        dice: tuple[tuple[int, int], ...] = (),
        value: int | str | None = None,
        outcome: str | None = None,
    ) -> None:
        self._set(
            command=command,
            text=text,
            secret=secret,
            success=success,
            failure=failure,
            critical=critical,
            fumble=fumble,
            dice=dice,
            value=value,
            outcome=outcome,
        )

    def replace(self, **changes: Any) -> Roll:
        """A copy with some fields changed."""
        values = {name: getattr(self, name) for name, _ in self._defaults}
        values.update(changes)
        return Roll(**values)

    def __str__(self) -> str:
        return self.text


class Odds(_Record):
    """Exact odds of a command.

    Attributes:
        command: the command as understood.
        distribution: outcome -> exact probability, sorted by outcome. Outcomes are ints
            (a total, a success count, damage) or strings (``choice``, contest results).
        success: probability of success where the command has a target, else ``None``.
        truncated: probability mass dropped by truncating an unbounded process.
        truncated_success: the part of ``truncated`` known to be successes (e.g. cut-off
            chains of criticals whose totals must beat the target); it is already counted
            in ``success``, so ``success`` is exact while the distribution still sums to
            ``1 - truncated``. Usually 0.
        critical / fumble: probabilities of those flags where the command has them.
        events: further named probabilities (system result words, e.g. ``粉砕``).
        label: what the outcomes measure (``合計``, ``成功数``, ``ダメージ`` ...).
    """

    __slots__ = (
        "command",
        "critical",
        "distribution",
        "events",
        "fumble",
        "label",
        "success",
        "truncated",
        "truncated_success",
    )
    __match_args__ = (
        "command",
        "distribution",
        "success",
        "truncated",
        "critical",
        "fumble",
        "events",
        "label",
        "truncated_success",
    )
    _defaults: ClassVar[tuple[tuple[str, object], ...]] = (
        ("command", _NO_DEFAULT),
        ("distribution", _NO_DEFAULT),
        ("success", None),
        ("truncated", Fraction(0)),
        ("critical", None),
        ("fumble", None),
        ("events", {}),
        ("label", "合計"),
        ("truncated_success", Fraction(0)),
    )

    command: str
    distribution: Mapping[int | str, Fraction]
    success: Fraction | None
    truncated: Fraction
    critical: Fraction | None
    fumble: Fraction | None
    events: Mapping[str, Fraction]
    label: str
    truncated_success: Fraction

    def __init__(  # noqa: PLR0917 - positional like the dataclass it replaces
        self,
        command: str,
        distribution: Mapping[int | str, Fraction],
        success: Fraction | None = None,
        truncated: Fraction = Fraction(0),
        critical: Fraction | None = None,
        fumble: Fraction | None = None,
        events: Mapping[str, Fraction] | None = None,
        label: str = "合計",
        truncated_success: Fraction = Fraction(0),
    ) -> None:
        self._set(
            command=command,
            distribution=distribution,
            success=success,
            truncated=truncated,
            critical=critical,
            fumble=fumble,
            events={} if events is None else events,
            label=label,
            truncated_success=truncated_success,
        )

    def replace(self, **changes: Any) -> Odds:
        """A copy with some fields changed."""
        values = {name: getattr(self, name) for name, _ in self._defaults}
        values.update(changes)
        return Odds(**values)

    @property
    def failure(self) -> Fraction | None:
        """Probability of failure (the retained mass not counted as success)."""
        if self.success is None:
            return None
        return 1 - self.truncated - self.success + self.truncated_success

    @property
    def mean(self) -> Fraction | None:
        """Mean of the numeric outcomes (renormalised over the retained mass), else ``None``."""
        items = list(self.distribution.items())
        if not items or not all(isinstance(k, int) for k, _ in items):
            return None
        total = sum((p for _, p in items), Fraction(0))
        if not total:
            return None
        return sum((Fraction(k) * p for k, p in items if isinstance(k, int)), Fraction(0)) / total

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict with every probability as an exact ``"n/d"`` string."""

        def q(p: Fraction | None) -> str | None:
            return None if p is None else f"{p.numerator}/{p.denominator}"

        mean = self.mean
        extra = {"truncated_success": q(self.truncated_success)} if self.truncated_success else {}
        return {
            "command": self.command,
            "label": self.label,
            "distribution": {str(k): q(p) for k, p in self.distribution.items()},
            "success": q(self.success),
            "failure": q(self.failure),
            "critical": q(self.critical),
            "fumble": q(self.fumble),
            "events": {k: q(p) for k, p in self.events.items()},
            "mean": q(mean),
            "truncated": q(self.truncated),
            **extra,
        }
