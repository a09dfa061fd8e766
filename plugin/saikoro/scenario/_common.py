"""Definitions shared by every system: text types, list checks, the chase tables' check.

>>> die_outcomes("2D6")[:3], len(die_outcomes("D66")), die_outcomes("1D100")[-1]
((2, 3, 4), 36, 100)
>>> die_outcomes("3D")
>>> spans([1, 2, 3, 5, 7, 8])
['1-3', '5', '7-8']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ._ids import WINDOWS_RESERVED, windows_reserved
from ._loader import Node, join_path
from ._problems import Msg, show_value
from ._rulings import key_node
from ._schema import INVALID, Ctx, IntOrRange, Str, Tolerant, Type

__all__ = [
    "ID",
    "ID_PATTERN",
    "LINE",
    "LONG",
    "NAME",
    "REF",
    "TEXT",
    "Scalar",
    "check_defeat_list",
    "check_table",
    "die_outcomes",
    "fraction_text",
    "spans",
    "unique_ids",
    "unique_names",
]

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*")
"""What an id looks like (scenario, enemy): it becomes part of URLs and file names."""


@dataclass(frozen=True)
class IdStr(Str):
    """An id: a :class:`Str` of :data:`ID_PATTERN` that is no Windows device name
    (:func:`~._ids.windows_reserved`: ids become file names)."""

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = super().check(node, path, ctx)
        if value is not INVALID and windows_reserved(value):
            hint = Msg("hint.id_windows", (value,))
            ctx.error(node, path, Msg("id.windows", (show_value(value),)), hint)
            return INVALID
        return value

    def json_schema(self) -> dict[str, Any]:
        out = super().json_schema()
        devices = sorted(n for n in WINDOWS_RESERVED if ID_PATTERN.fullmatch(n))
        out["not"] = {"pattern": f"^(?:{'|'.join(devices)})$"}
        return out


ID = IdStr(
    max_length=64,
    pattern=ID_PATTERN.pattern,
    pattern_msg=Msg("t.id"),
)
"""Identifiers: lower-case ASCII letters, digits, ``-`` and ``_``; not a Windows device
name (``con``, ``nul``, ``com1``...)."""
NAME = Str(max_length=80)
"""Short display names."""
TEXT = Str(max_length=4000, markdown=True)
"""Longer Markdown text."""
LINE = Str(max_length=200)
"""One line of text (a caption, a credit)."""
LONG = Str(max_length=20000, markdown=True)
"""Scene and handout texts: a scene of a published scenario is often a few pages."""
REF = Str(max_length=64, pattern=ID_PATTERN.pattern, pattern_msg=Msg("t.id"))
"""An id that names a part of the scenario (the part's own :data:`ID` is checked)."""

_DIE = re.compile(r"(\d{0,2})D(\d{1,3})")


@cache
def die_outcomes(die: str) -> tuple[int, ...] | None:
    """Every possible result of a table die (``NdM`` summed, ``D66``), sorted; ``None`` if unknown.

    Asks :func:`saikoro.odds` (the dice engine) first, and counts locally when it cannot
    answer; the two agree (a test checks it).
    """
    text = die.strip().upper()
    if text == "D66":
        local = tuple(10 * a + b for a in range(1, 7) for b in range(1, 7))
    else:
        m = _DIE.fullmatch(text)
        if m is None:
            return None
        count, sides = int(m.group(1) or "1"), int(m.group(2))
        if not (1 <= count <= 20 and 2 <= sides <= 1000):
            return None
        local = tuple(range(count, count * sides + 1))
    if len(local) <= 1000:
        engine = _engine_outcomes(text)
        if engine is not None:
            return engine
    return local


def _engine_outcomes(die: str) -> tuple[int, ...] | None:
    """The outcomes according to the engine's odds (``None`` if it cannot say)."""
    from saikoro.dice import DiceError, odds

    try:
        result = odds(die)
    except DiceError:  # the engine refuses the text (a bound): count locally
        return None
    if result is None or result.truncated:
        return None
    keys = list(result.distribution)
    if not keys or not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
        return None
    return tuple(sorted(int(k) for k in keys))


def spans(values: list[int]) -> list[str]:
    """Runs of consecutive integers as ``A-B`` (or ``A``) texts."""
    out: list[str] = []
    start = prev = None
    for v in sorted(values):
        if prev is not None and v == prev + 1:
            prev = v
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = v
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return out


def fraction_text(p: Fraction) -> str:
    """A probability as ``a/b (xx.x%)``.

    >>> fraction_text(Fraction(1, 12))
    '1/12 (8.3%)'
    """
    if p.denominator == 1:
        return f"{p.numerator} ({p.numerator * 100}%)"
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.1f}%)"


class Scalar(Type):
    """Any single value: text, integer or true/false (ruling option values)."""

    def expected(self) -> Msg:
        return Msg("t.scalar")

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "scalar" or not isinstance(node.value, str | int | bool):
            return ctx.wrong(node, path, self.expected())
        return node.value

    def json_schema(self) -> dict[str, Any]:
        return {"type": ["string", "integer", "boolean"]}


def unique_ids(what: str = "id") -> Tolerant:
    """A list check: the ``what`` of every item is unique (also among the valid items of a
    list with errors elsewhere)."""

    def check(items: list[Any], node: Node, path: str, ctx: Ctx) -> None:
        seen: dict[str, int] = {}
        for i, item in enumerate(items):
            value = item.get(what) if isinstance(item, dict) else None  # INVALID: skipped
            if value is None:
                continue
            item_path = join_path(join_path(path, i), what)
            where = ctx.nodes.get(item_path, node)
            if value in seen:
                first = ctx.nodes.get(join_path(join_path(path, seen[value]), what), node)
                ctx.error(where, item_path, Msg("dup_id", (show_value(value), first.line)))
            else:
                seen[value] = i

    return Tolerant(check)


def check_defeat_list(items: list[Any], node: Node, path: str, ctx: Ctx) -> None:
    """``balance.defeat``: at least one enemy, each once."""
    if not items:
        ctx.error(node, path, Msg("balance.defeat_empty"), Msg("hint.defeat_empty"))
        return
    _once(items, node, path, ctx, "dup.defeat")


def _once(items: list[Any], node: Node, path: str, ctx: Ctx, code: str) -> None:
    """An error at every repeat of a value of ``items`` (a list of texts)."""
    seen: dict[object, int] = {}
    for i, value in enumerate(items):
        if value not in seen:
            seen[value] = i
            continue
        ipath = join_path(path, i)
        first = ctx.nodes.get(join_path(path, seen[value]), node)
        where = ctx.nodes.get(ipath, node)
        ctx.error(where, ipath, Msg(code, (show_value(value), first.line)), Msg("hint.once"))


def unique_names(code: str) -> Callable[[list[Any], Node, str, Ctx], None]:
    """A list check: the ``name`` of every item (a mapping) is used once."""

    def check(items: list[Any], node: Node, path: str, ctx: Ctx) -> None:
        seen: dict[str, int] = {}
        for i, item in enumerate(items):
            name = item.get("name") if isinstance(item, dict) else None
            if not isinstance(name, str):
                continue
            if name not in seen:
                seen[name] = i
                continue
            npath = join_path(join_path(path, i), "name")
            first = ctx.nodes.get(join_path(join_path(path, seen[name]), "name"), node)
            msg = Msg(code, (show_value(name), first.line))
            ctx.error(ctx.nodes.get(npath, node), npath, msg, Msg("hint.rename"))

    return check


def check_table(table: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """Every outcome of the die covered exactly once (tolerant: only the keys are read)."""
    die = table.get("die")
    if not isinstance(die, str) or not isinstance(table.get("entries"), dict):
        return
    outcomes = die_outcomes(die)
    die_path = join_path(path, "die")
    if outcomes is None:
        ctx.error(ctx.nodes.get(die_path, node), die_path, Msg("table.die", (show_value(die),)))
        return
    possible = set(outcomes)
    lo, hi = outcomes[0], outcomes[-1]
    entries_path = join_path(path, "entries")
    entries_node = ctx.nodes.get(entries_path, node)
    covered: dict[int, str] = {}
    overlaps: dict[tuple[str, str], list[int]] = {}
    for key in table["entries"]:
        a, b = IntOrRange.bounds(key)
        key_path = join_path(entries_path, key)
        where = key_node(entries_node, key) or ctx.nodes.get(key_path, entries_node)
        hits = [v for v in range(max(a, lo), min(b, hi) + 1) if v in possible]
        if not hits:
            ctx.error(where, key_path, Msg("table.outside", (key, die, f"{lo}-{hi}")))
            continue
        if a < lo or b > hi or (a == b and a not in possible):
            ctx.error(where, key_path, Msg("table.outside", (key, die, f"{lo}-{hi}")))
        for v in hits:
            if v in covered:
                overlaps.setdefault((covered[v], key), []).append(v)
            else:
                covered[v] = key
    for (first, second), values in overlaps.items():
        key_path = join_path(entries_path, second)
        where = key_node(entries_node, second) or entries_node
        for text in spans(values):
            code = "table.overlap_one" if "-" not in text else "table.overlap"
            ctx.error(where, key_path, Msg(code, (text, first, second)))
    for run in _gaps(outcomes, covered):
        _report_gap(
            run,
            outcomes=outcomes,
            covered=covered,
            die=die,
            entries_node=entries_node,
            entries_path=entries_path,
            ctx=ctx,
        )


def _gaps(outcomes: tuple[int, ...], covered: dict[int, str]) -> list[list[int]]:
    """The runs of outcomes (consecutive in the die's order) no entry covers."""
    runs: list[list[int]] = []
    for i, v in enumerate(outcomes):
        if v in covered:
            continue
        if runs and outcomes.index(runs[-1][-1]) == i - 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return runs


def _widened(key: str, low: int, high: int) -> str:
    a, b = IntOrRange.bounds(key)
    a, b = min(a, low), max(b, high)
    return str(a) if a == b else f"{a}-{b}"


def _report_gap(
    run: list[int],
    *,
    outcomes: tuple[int, ...],
    covered: dict[int, str],
    die: str,
    entries_node: Node,
    entries_path: str,
    ctx: Ctx,
) -> None:
    """One gap, at the entry after it (or before it, at the table's end), with the fix:
    widen the entry before the gap or the one after it."""
    first, last = outcomes.index(run[0]), outcomes.index(run[-1])
    before = covered.get(outcomes[first - 1]) if first > 0 else None
    after = covered.get(outcomes[last + 1]) if last + 1 < len(outcomes) else None
    text = str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"
    code = "table.gap_one" if len(run) == 1 else "table.gap"
    fixes = []
    if before is not None:
        fixes.append(Msg("hint.table.widen", (before, _widened(before, run[0], run[-1]))))
    if after is not None:
        fixes.append(Msg("hint.table.widen", (after, _widened(after, run[0], run[-1]))))
    hint = None
    if len(fixes) == 2:
        hint = Msg("hint.table.either", (fixes[0], fixes[1], text))
    elif fixes:
        hint = Msg("hint.table.one", (fixes[0], text))
    anchor = after if after is not None else before
    where = (key_node(entries_node, anchor) if anchor is not None else None) or entries_node
    ctx.error(
        where,
        join_path(entries_path, anchor) if anchor else entries_path,
        Msg(code, (text, die)),
        hint,
    )
